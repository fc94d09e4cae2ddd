"use client";
import { useState, type ReactNode } from "react";
import { Button, ErrorText, Field, Input } from "@/components/ui/primitives";
import { fieldError, useAction } from "@/components/ui/use-action";
import type { ActionResult } from "@/lib/actions/result";
import type { ConstitutionIssue } from "@/lib/constitution/schema";
import { saveFileSchema, type SaveFileInput } from "@/lib/schemas/constitution";
import { issuesFromDetails } from "./issues";

/** The version a conflict names as current (lib/db/constitution's ConflictError details), if it names one. */
function currentVersionOf(details: unknown): number | null {
  const id = typeof details === "object" && details !== null ? (details as { currentVersionId?: unknown }).currentVersionId : undefined;
  return typeof id === "number" && Number.isInteger(id) ? id : null;
}

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
  const [message, setMessage] = useState("");
  const [messageError, setMessageError] = useState<string | undefined>();
  const action = useAction(save);
  // A refusal is about the attempt's base; once the editor moved to another base it no longer applies.
  const failure = action.variables?.baseVersionId === baseVersionId ? action.error?.error : undefined;
  const conflictWith = failure?.code === "conflict" ? currentVersionOf(failure.details) : null;
  const located = failure ? issuesFromDetails(failure.details) : [];

  const submit = () => {
    const input = { text, baseVersionId, message };
    const parsed = saveFileSchema.safeParse(input);
    if (!parsed.success) {
      // The text's own problems (its size) are shown at the editor, which blocks Save for them.
      const aboutMessage = parsed.error.issues.filter((i) => i.path[0] === "message");
      setMessageError(aboutMessage.length ? aboutMessage.map((i) => i.message).join(" ") : undefined);
      return;
    }
    setMessageError(undefined);
    action.mutate(input, {
      onSuccess: (data) => {
        setMessage("");
        onSaved(data.versionId, text);
      },
      onError: (error) => {
        const current = error.error.code === "conflict" ? currentVersionOf(error.error.details) : null;
        if (current !== null) onConflict(current);
        else onRefused(text, issuesFromDetails(error.error.details));
      },
    });
  };

  return (
    <form
      aria-label={`Save ${noun}`}
      noValidate
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <Field label="Commit message" hint="Say what changed and why; it is shown in the history." error={messageError ?? fieldError(action.error, "message")}>
        <Input value={message} onChange={(e) => setMessage(e.target.value)} />
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
      {conflictWith !== null ? (
        <ErrorText>{failure?.message} Or re-apply your draft on top of version {conflictWith}: its change is shown above.</ErrorText>
      ) : failure?.code === "conflict" ? (
        <ErrorText>
          {failure.message}{" "}
          <a className="font-medium underline" href={reloadHref}>
            Reload
          </a>
        </ErrorText>
      ) : failure && located.length > 0 ? (
        <ErrorText>
          The server refused the {noun} ({located.length} {located.length === 1 ? "problem" : "problems"}, listed above); nothing was saved.
        </ErrorText>
      ) : failure && !fieldError(action.error, "message") ? (
        <ErrorText>{failure.message}</ErrorText>
      ) : null}
    </form>
  );
}
