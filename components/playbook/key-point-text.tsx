"use client";
import { useState } from "react";
import { TextArea } from "@/components/constitution/text-area";
import { Button } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import { editKeyPointAction } from "@/lib/actions/edit-key-point";
import { editKeyPointSchema } from "@/lib/schemas/playbook";
import { ActionError } from "./action-error";

/** A key point's text; editors can change it in place (its name and counts stay). */
export function KeyPointText({
  name,
  text,
  canEdit,
}: {
  name: string;
  text: string;
  canEdit: boolean;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const [clientError, setClientError] = useState<string | null>(null);
  const edit = useAction(editKeyPointAction, { onSuccess: () => setDraft(null) });

  if (draft === null) {
    return (
      <div className="flex items-start gap-2">
        <p className="whitespace-pre-wrap break-words" data-testid="key-point-text">
          {text}
        </p>
        {canEdit ? (
          <Button
            variant="ghost"
            className="shrink-0 px-2 py-0.5 text-xs"
            aria-label={`Edit ${name}`}
            onClick={() => {
              edit.reset();
              setDraft(text);
            }}
          >
            Edit
          </Button>
        ) : null}
      </div>
    );
  }
  return (
    <form
      aria-label={`Edit ${name}`}
      noValidate
      className="space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        // The schema the server action uses, so the form and the server agree.
        const parsed = editKeyPointSchema.safeParse({ name, text: draft });
        if (!parsed.success) {
          setClientError(parsed.error.issues[0]?.message ?? "Check the text.");
          return;
        }
        setClientError(null);
        edit.mutate(parsed.data);
      }}
    >
      <TextArea
        aria-label={`Text of ${name}`}
        rows={3}
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
      />
      {clientError ? (
        <p role="alert" className="text-xs text-red-600">
          {clientError}
        </p>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" disabled={edit.isPending}>
          {edit.isPending ? "Saving…" : "Save"}
        </Button>
        <Button variant="ghost" onClick={() => setDraft(null)}>
          Cancel
        </Button>
      </div>
      <ActionError failure={edit.error} />
    </form>
  );
}
