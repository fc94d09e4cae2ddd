"use client";
import type { ReactNode } from "react";
import { Button, ErrorText, Field, Input } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import { putFieldIssues, useSchemaForm } from "@/components/ui/use-action-form";
import { conflictVersionOf, fieldMessage, type ActionResult } from "@/lib/actions/result";
import type { ConstitutionIssue } from "@/lib/constitution/schema";
import { saveFileSchema, type SaveFileInput } from "@/lib/schemas/constitution";
import { locatedIssues } from "./issues";

/** Saves one file's text on top of a base version: a server action bound to its file. */
export type SaveFile = (input: SaveFileInput) => Promise<ActionResult<{ versionId: number }>>;

/**
 * The commit message and Save. Saves `text` on top of `baseVersionId` with `save`; a
 * refusal with located issues is handed back through `onRefused` so the editor can show
 * them in place, and a conflict (another version saved since the base) through
 * `onConflict` with the version now current, so the editor can show that change; when
 * the server does not say which version that is, `reloadHref` is offered.
 */
export function SaveFilePanel({
  noun,
  text,
  baseVersionId,
  blockedBecause,
  save,
  reloadHref,
  preview,
  onSaved,
  onRefused,
  onConflict,
}: {
  /** What is saved, as in "Save overlay" (the form's accessible name). */
  noun: string;
  text: string;
  baseVersionId: number;
  blockedBecause: string | null;
  save: SaveFile;
  reloadHref: string;
  /** Shown above the Save button, e.g. what the change would do before it is saved. */
  preview?: ReactNode;
  onSaved: (versionId: number, text: string) => void;
  onRefused: (text: string, issues: ConstitutionIssue[]) => void;
  onConflict: (currentVersionId: number) => void;
}) {
  const form = useSchemaForm(saveFileSchema, { text, baseVersionId, message: "" });
  const action = useAction(save);
  // A refusal is about the attempt's base; once the editor moved to another base it no longer applies.
  const failure =
    action.variables?.baseVersionId === baseVersionId ? action.error?.error : undefined;
  const conflictWith = conflictVersionOf(failure);
  const located = locatedIssues(failure);
  // The text's own problems (its size) are shown at the editor, which blocks Save for them.
  const messageError = form.formState.errors.message?.message;

  const submit = form.handleSubmit((input) =>
    action.mutate(input, {
      onSuccess: (data) => {
        form.setValue("message", "");
        onSaved(data.versionId, text);
      },
      onError: (error) => {
        putFieldIssues(form, error.error);
        const current = conflictVersionOf(error.error);
        if (current !== null) onConflict(current);
        else onRefused(text, locatedIssues(error.error));
      },
    }),
  );

  return (
    <form
      aria-label={`Save ${noun}`}
      noValidate
      className="space-y-3"
      onSubmit={(e) => {
        // The text and its base are the editor's, not this form's: read them as they are now.
        form.setValue("text", text);
        form.setValue("baseVersionId", baseVersionId);
        void submit(e);
      }}
    >
      <Field
        label="Commit message"
        hint="Say what changed and why; it is shown in the history."
        error={messageError}
      >
        <Input {...form.register("message")} />
      </Field>
      {preview}
      <div className="flex items-center gap-3">
        <Button type="submit" disabled={action.isPending || blockedBecause !== null}>
          {action.isPending ? "Saving…" : "Save"}
        </Button>
        {blockedBecause ? <span className="text-sm text-slate-600">{blockedBecause}</span> : null}
      </div>
      {action.isSuccess ? (
        <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
          Saved as version {action.data.versionId}.
        </p>
      ) : null}
      {failure?.code === "conflict" && conflictWith !== null ? (
        <ErrorText>
          {failure?.message} Or re-apply your draft on top of version {conflictWith}: its change is
          shown above.
        </ErrorText>
      ) : failure?.code === "conflict" ? (
        <ErrorText>
          {failure.message}{" "}
          <a className="font-medium underline" href={reloadHref}>
            Reload
          </a>
        </ErrorText>
      ) : failure && located.length > 0 ? (
        <ErrorText>
          The server refused the {noun} ({located.length}{" "}
          {located.length === 1 ? "problem" : "problems"}, listed above); nothing was saved.
        </ErrorText>
      ) : failure && !fieldMessage(failure, "message") ? (
        <ErrorText>{failure.message}</ErrorText>
      ) : null}
    </form>
  );
}
