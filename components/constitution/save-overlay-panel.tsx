"use client";
import { useState } from "react";
import { Button, ErrorText, Field, Input } from "@/components/ui/primitives";
import { fieldError, useAction } from "@/components/ui/use-action";
import { saveOverlayAction } from "@/lib/actions/save-overlay";
import type { ConstitutionIssue } from "@/lib/constitution/schema";
import { saveOverlaySchema } from "@/lib/schemas/constitution";
import { issuesFromDetails } from "./issues";

/**
 * The commit message and Save. Saves `text` on top of `baseVersionId`; a refusal with
 * located issues is handed back through `onRefused` so the editor can show them in place.
 */
export function SaveOverlayPanel({
  domain,
  text,
  baseVersionId,
  blockedBecause,
  onSaved,
  onRefused,
}: {
  domain: string;
  text: string;
  baseVersionId: number;
  blockedBecause: string | null;
  onSaved: (versionId: number, text: string) => void;
  onRefused: (text: string, issues: ConstitutionIssue[]) => void;
}) {
  const [message, setMessage] = useState("");
  const [messageError, setMessageError] = useState<string | undefined>();
  const save = useAction(saveOverlayAction);
  const failure = save.error?.error;
  const located = failure ? issuesFromDetails(failure.details) : [];

  const submit = () => {
    const input = { domain, text, baseVersionId, message };
    const parsed = saveOverlaySchema.safeParse(input);
    if (!parsed.success) {
      setMessageError(parsed.error.issues.map((i) => i.message).join(" "));
      return;
    }
    setMessageError(undefined);
    save.mutate(input, {
      onSuccess: (data) => {
        setMessage("");
        onSaved(data.versionId, text);
      },
      onError: (error) => onRefused(text, issuesFromDetails(error.error.details)),
    });
  };

  return (
    <form
      aria-label="Save overlay"
      noValidate
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <Field label="Commit message" hint="Say what changed and why; it is shown in the history." error={messageError ?? fieldError(save.error, "message")}>
        <Input value={message} onChange={(e) => setMessage(e.target.value)} />
      </Field>
      <div className="flex items-center gap-3">
        <Button type="submit" disabled={save.isPending || blockedBecause !== null}>
          {save.isPending ? "Saving…" : "Save"}
        </Button>
        {blockedBecause ? <span className="text-sm text-slate-600">{blockedBecause}</span> : null}
      </div>
      {save.isSuccess ? (
        <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
          Saved as version {save.data.versionId}.
        </p>
      ) : null}
      {failure?.code === "conflict" ? (
        <ErrorText>
          {failure.message}{" "}
          <a className="font-medium underline" href={`/constitution/overlays/${domain}`}>
            Reload
          </a>
        </ErrorText>
      ) : failure && located.length > 0 ? (
        <ErrorText>The server refused the overlay ({located.length} {located.length === 1 ? "problem" : "problems"}, listed above); nothing was saved.</ErrorText>
      ) : failure && !fieldError(save.error, "message") ? (
        <ErrorText>{failure.message}</ErrorText>
      ) : null}
    </form>
  );
}
