"use client";
import { ActionError } from "@/components/ui/action-error";
import { Button, Field } from "@/components/ui/primitives";
import { TextArea } from "@/components/ui/text-area";
import { useActionForm } from "@/components/ui/use-action-form";
import { addKeyPointAction } from "@/lib/actions/add-key-point";
import { addKeyPointSchema } from "@/lib/schemas/playbook";

/** Adds a key point by hand; it starts at helpful 0, harmful 0 and gets the next free name. */
export function AddKeyPointForm() {
  const {
    form,
    mutation: add,
    submit,
    error,
    formFailure,
  } = useActionForm(addKeyPointSchema, addKeyPointAction, {
    defaultValues: { text: "" },
    onSuccess: (_, f) => f.reset(),
  });

  return (
    <form aria-label="Add a key point" noValidate className="space-y-3" onSubmit={submit}>
      <Field label="Key point" hint="One lesson, in a sentence or two." error={error("text")}>
        <TextArea rows={3} {...form.register("text")} />
      </Field>
      <Button type="submit" disabled={add.isPending}>
        {add.isPending ? "Adding…" : "Add key point"}
      </Button>
      <ActionError failure={formFailure} />
      {add.data ? (
        <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
          Added <span className="font-mono">{add.data.name}</span>.
        </p>
      ) : null}
    </form>
  );
}
