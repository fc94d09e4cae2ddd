"use client";
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useMemo, useState } from "react";
import { ImpactPreviewReport } from "@/components/constitution/impact-preview-report";
import { PreviewError, previewDraft } from "@/components/constitution/impact-preview";
import { TextArea } from "@/components/ui/text-area";
import { Button, ErrorText, Field, Input } from "@/components/ui/primitives";
import { ActionFailure, useAction } from "@/components/ui/use-action";
import { acceptLabelAction } from "@/lib/actions/accept-label";
import { draftLabelAction } from "@/lib/actions/draft-label";
import { retrieveAction } from "@/lib/actions/retrieve";
import type { ActionError } from "@/lib/actions/result";
import { REVIEWED_FILE } from "@/lib/constitution/review-labels";
import type { ImpactPreview } from "@/lib/schemas/constitution";
import {
  acceptLabelSchema,
  labelSchema,
  type LabelChoices,
  type LabelDraftView,
  type LabelInput,
  type LabelVerdict,
} from "@/lib/schemas/labels";
import { LabelCase } from "./label-case";
import { DomainFields, InjectedPicker, PrinciplePicker, VerdictFields } from "./label-fields";

type Shown = { label: LabelInput; draft: LabelDraftView; preview: ImpactPreview };

/** Field messages of a zod check or a refusal, by field. */
function messagesOf(issues: readonly { path: PropertyKey[] | string; message: string }[]) {
  const out: Record<string, string> = {};
  for (const i of issues) {
    const key = Array.isArray(i.path) ? String(i.path[0] ?? "") : String(i.path);
    out[key] ??= i.message;
  }
  return out;
}

const FIELDS = new Set(["prompt", "domains", "verdict", "principle", "note", "confirmed"]);

/** A refusal's messages for the form's own fields (a draft that breaks the constitution is located in its file instead). */
const fieldIssues = (error: ActionError) =>
  error.code === "invalid_input"
    ? messagesOf((error.details ?? []).filter((d) => FIELDS.has(d.path)))
    : {};

/**
 * A reviewer labels a prompt for the constitution's eval set: an injected principle that
 * did not apply, one that should have, or only the domains. The label is drafted and its
 * impact previewed (the one preview call, previewDraft); it is stored, as a new version,
 * only after the editor confirms that the prompt's text may be stored.
 */
export function LabelPanel({
  prompt: initialPrompt,
  turnId,
  injected,
  detected,
  choices,
}: {
  prompt: string;
  turnId?: string;
  /** The principles retrieval injected (or would have) for the prompt. */
  injected: string[];
  /** The domains retrieval detected; left out, they are detected when the form opens. */
  detected?: string[];
  choices: LabelChoices;
}) {
  const [open, setOpen] = useState(false);
  const [verdict, setVerdict] = useState<LabelVerdict>("should_apply");
  const [principle, setPrinciple] = useState("");
  const [domains, setDomains] = useState<string[]>(() =>
    (detected ?? []).filter((d) => choices.domains.includes(d)),
  );
  const [prompt, setPrompt] = useState(initialPrompt);
  const [note, setNote] = useState("");
  const [confirmed, setConfirmed] = useState(false);
  const [issues, setIssues] = useState<Record<string, string>>({});
  const [shown, setShown] = useState<Shown | null>(null);
  const titles = useMemo(
    () => new Map(choices.principles.map((p) => [p.id, p.title])),
    [choices.principles],
  );

  const detect = useMutation({
    mutationFn: async (text: string) => {
      const result = await retrieveAction({ prompt: text });
      if (!result.ok) throw new ActionFailure(result.error);
      return result.data.domains.map((d) => d.domain).filter((d) => choices.domains.includes(d));
    },
    onSuccess: (found) => setDomains(found),
  });
  const { mutate: detectNow } = detect;
  useEffect(() => {
    if (open && detected === undefined && initialPrompt.trim()) detectNow(initialPrompt);
  }, [open, detected, initialPrompt, detectNow]);

  const label: LabelInput = {
    prompt,
    domains,
    verdict,
    ...(verdict === "domains_only" ? {} : { principle }),
    ...(note.trim() ? { note } : {}),
    ...(turnId ? { turnId } : {}),
  };
  const stale = shown !== null && JSON.stringify(shown.label) !== JSON.stringify(label);

  const preview = useMutation<Shown, ActionFailure, LabelInput>({
    mutationFn: async (input) => {
      const drafted = await draftLabelAction(input);
      if (!drafted.ok) throw new ActionFailure(drafted.error);
      const { baseVersionId, path, text } = drafted.data;
      return {
        label: input,
        draft: drafted.data,
        preview: await previewDraft({ baseVersionId, path, text }),
      };
    },
    onSuccess: (result) => setShown(result),
    onError: (failure) => setIssues(fieldIssues(failure.error)),
  });
  const accept = useAction(acceptLabelAction, {
    onSuccess: () => {
      setShown(null);
      setConfirmed(false);
    },
  });

  const runPreview = () => {
    accept.reset();
    const checked = labelSchema.safeParse(label);
    setIssues(checked.success ? {} : messagesOf(checked.error.issues));
    if (checked.success) preview.mutate(label);
  };
  const runAccept = () => {
    if (!shown) return;
    const input = { ...shown.label, baseVersionId: shown.draft.baseVersionId, confirmed };
    const checked = acceptLabelSchema.safeParse(input);
    if (!checked.success) return setIssues(messagesOf(checked.error.issues));
    setIssues({});
    accept.mutate(input as Parameters<typeof acceptLabelAction>[0], {
      onError: (failure) => {
        setIssues(fieldIssues(failure.error));
        // Drawn on a version that is no longer in force: it must be previewed again.
        if (failure.error.code === "conflict") setShown(null);
      },
    });
  };

  if (!open)
    return (
      <div className="space-y-2">
        {accept.data ? <Saved versionId={accept.data.versionId} /> : null}
        <Button variant="secondary" onClick={() => setOpen(true)}>
          Label for the eval set
        </Button>
      </div>
    );

  const conflict = accept.error?.error.code === "conflict" ? accept.error.error : null;
  return (
    <form
      aria-label="Label for the eval set"
      noValidate
      className="space-y-3"
      onSubmit={(e) => e.preventDefault()}
    >
      <VerdictFields
        verdict={verdict}
        onVerdict={(v) => {
          setVerdict(v);
          setPrinciple("");
        }}
        canSayNotApplied={injected.length > 0}
      />
      {verdict === "did_not_apply" ? (
        <InjectedPicker
          injected={injected}
          titles={titles}
          value={principle}
          onChange={setPrinciple}
          error={issues.principle}
        />
      ) : verdict === "should_apply" ? (
        <PrinciplePicker
          principles={choices.principles}
          value={principle}
          onChange={setPrinciple}
          error={issues.principle}
        />
      ) : null}
      <DomainFields
        domains={choices.domains}
        value={domains}
        onChange={setDomains}
        error={issues.domains}
        note={
          detect.isPending
            ? "Detecting the prompt's domains…"
            : detect.isError
              ? `The domains could not be detected (${detect.error.message}): tick them yourself.`
              : "Prefilled with the domains retrieval detects for this prompt; change them as needed."
        }
      />
      <Field
        label="Prompt"
        hint="Stored in the constitution as written here: take out anything secret first."
        error={issues.prompt}
      >
        <TextArea rows={4} value={prompt} onChange={(e) => setPrompt(e.target.value)} />
      </Field>
      <Field label="Note (optional)" error={issues.note}>
        <Input value={note} onChange={(e) => setNote(e.target.value)} />
      </Field>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" disabled={preview.isPending} onClick={runPreview}>
          {preview.isPending ? "Previewing…" : shown ? "Preview again" : "Preview impact"}
        </Button>
        <Button variant="ghost" onClick={() => setOpen(false)}>
          Close
        </Button>
      </div>
      {preview.isError && Object.keys(fieldIssues(preview.error.error)).length === 0 ? (
        <PreviewError failure={preview.error} path={REVIEWED_FILE} />
      ) : null}
      {shown ? (
        <section
          aria-label="Label preview"
          data-testid="label-preview"
          className={stale ? "space-y-3 opacity-60" : "space-y-3"}
        >
          {stale ? (
            <p role="status" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
              The label changed since this preview: preview again before accepting it.
            </p>
          ) : null}
          <LabelCase draft={shown.draft} />
          <div data-testid="impact-preview" className="rounded-md border border-slate-200 p-3">
            <h3 className="mb-2 text-sm font-semibold text-slate-800">
              Impact on version {shown.draft.baseVersionId}
            </h3>
            <ImpactPreviewReport preview={shown.preview} />
          </div>
          <label className="flex items-start gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              className="mt-1"
              checked={confirmed}
              onChange={(e) => setConfirmed(e.target.checked)}
            />
            <span>
              The prompt text above may be stored in the constitution: it holds no secret (no key,
              password or personal data).
            </span>
          </label>
          {issues.confirmed ? <ErrorText>{issues.confirmed}</ErrorText> : null}
          <Button disabled={stale || accept.isPending} onClick={runAccept}>
            {accept.isPending ? "Saving…" : "Accept label"}
          </Button>
        </section>
      ) : null}
      {conflict ? (
        <p role="alert" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {conflict.details?.currentVersionId
            ? `Version ${conflict.details.currentVersionId} was saved after version ${accept.variables?.baseVersionId ?? "?"}, which this preview was drawn on`
            : "Another version was saved after the one this preview was drawn on"}
          : nothing was saved. Preview again to see this label on the version in force, then accept
          it.
        </p>
      ) : accept.isError && Object.keys(issues).length === 0 ? (
        <ErrorText>{accept.error.message}</ErrorText>
      ) : null}
      {accept.data ? <Saved versionId={accept.data.versionId} /> : null}
    </form>
  );
}

function Saved({ versionId }: { versionId: number }) {
  return (
    <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
      Saved as version {versionId}. The case is listed with the other{" "}
      <Link href="/constitution/evals#reviewed-labels" className="font-medium underline">
        labels from review
      </Link>
      .
    </p>
  );
}
