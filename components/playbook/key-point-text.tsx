"use client";
import { useState } from "react";
import { ActionError } from "@/components/ui/action-error";
import { Button } from "@/components/ui/primitives";
import { TextArea } from "@/components/ui/text-area";
import { useActionForm } from "@/components/ui/use-action-form";
import { editKeyPointAction } from "@/lib/actions/edit-key-point";
import { editKeyPointSchema } from "@/lib/schemas/playbook";

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
  const [editing, setEditing] = useState(false);

  if (editing) return <KeyPointEditForm name={name} text={text} onDone={() => setEditing(false)} />;
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
          onClick={() => setEditing(true)}
        >
          Edit
        </Button>
      ) : null}
    </div>
  );
}

function KeyPointEditForm({
  name,
  text,
  onDone,
}: {
  name: string;
  text: string;
  onDone: () => void;
}) {
  const {
    form,
    mutation: edit,
    submit,
    error,
    formFailure,
  } = useActionForm(editKeyPointSchema, editKeyPointAction, {
    defaultValues: { name, text },
    onSuccess: onDone,
  });
  const problem = error("text") ?? error("name");

  return (
    <form aria-label={`Edit ${name}`} noValidate className="space-y-2" onSubmit={submit}>
      <TextArea aria-label={`Text of ${name}`} rows={3} {...form.register("text")} />
      {problem ? (
        <p role="alert" className="text-xs text-red-600">
          {problem}
        </p>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" disabled={edit.isPending}>
          {edit.isPending ? "Saving…" : "Save"}
        </Button>
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
      <ActionError failure={formFailure} />
    </form>
  );
}
