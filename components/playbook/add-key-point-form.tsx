"use client";
import { useState } from "react";
import { TextArea } from "@/components/constitution/text-area";
import { Button, Field } from "@/components/ui/primitives";
import { fieldError, useAction } from "@/components/ui/use-action";
import { addKeyPointAction } from "@/lib/actions/add-key-point";
import { addKeyPointSchema } from "@/lib/schemas/playbook";
import { ActionError } from "./action-error";

/** Adds a key point by hand; it starts at helpful 0, harmful 0 and gets the next free name. */
export function AddKeyPointForm() {
  const [text, setText] = useState("");
  const [clientError, setClientError] = useState<string | undefined>();
  const add = useAction(addKeyPointAction, { onSuccess: () => setText("") });

  return (
    <form
      aria-label="Add a key point"
      noValidate
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        // The schema the server action uses, so the form and the server agree.
        const parsed = addKeyPointSchema.safeParse({ text });
        if (!parsed.success) {
          setClientError(parsed.error.issues[0]?.message);
          return;
        }
        setClientError(undefined);
        add.mutate(parsed.data);
      }}
    >
      <Field
        label="Key point"
        hint="One lesson, in a sentence or two."
        error={clientError ?? fieldError(add.error, "text")}
      >
        <TextArea name="text" rows={3} value={text} onChange={(e) => setText(e.target.value)} />
      </Field>
      <Button type="submit" disabled={add.isPending}>
        {add.isPending ? "Adding…" : "Add key point"}
      </Button>
      {add.error && !Array.isArray(add.error.error.details) ? (
        <ActionError failure={add.error} />
      ) : null}
      {add.data ? (
        <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
          Added <span className="font-mono">{add.data.name}</span>.
        </p>
      ) : null}
    </form>
  );
}
