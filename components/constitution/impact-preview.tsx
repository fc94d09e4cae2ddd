"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Button, ErrorText } from "@/components/ui/primitives";
import { ActionFailure } from "@/components/ui/use-action";
import { previewConstitutionChangeAction } from "@/lib/actions/preview-constitution-change";
import { fieldIssuesOf } from "@/lib/actions/result";
import type { ImpactPreview as Preview } from "@/lib/schemas/constitution";
import { ImpactPreviewReport } from "./impact-preview-report";
import { IssueList } from "./issue-list";
import { locatedIssues } from "./issues";

type Draft = { baseVersionId: number; path: string; text: string };

/**
 * The impact preview of a draft, as every panel that shows one asks for it (the file
 * editors here, a reviewer's label in components/labels): one call, so what the preview
 * holds is added in one place. Throws the refusal as an ActionFailure.
 */
export async function previewDraft(draft: Draft): Promise<Preview> {
  const result = await previewConstitutionChangeAction(draft);
  if (!result.ok) throw new ActionFailure(result.error);
  return result.data;
}

/** Why a preview was refused: an invalid draft's located issues, or the message. */
export function PreviewError({ failure, path }: { failure: ActionFailure; path: string }) {
  const issues = locatedIssues(failure.error);
  // An invalid draft's message repeats every issue on its own lines; the list below shows them.
  const message = failure.error.message.split("\n")[0];
  if (issues.length)
    return <IssueList issues={issues} path={path} title={message ?? "The draft is invalid."} />;
  return (
    <ErrorText>
      {failure.error.message}
      {fieldIssuesOf(failure.error).map((d, i) => (
        <span key={i} className="block text-xs">
          {d.path ? `${d.path}: ` : ""}
          {d.message}
        </span>
      ))}
    </ErrorText>
  );
}

/**
 * Shows what saving `text` as `path` on top of `baseVersionId` would change, before the
 * save: the eval set on the base version and on the draft, and a replay of recent
 * prompts. Runs on request (it takes a moment), and marks a shown preview stale once the
 * draft changes. Needs the editor role: with `canPreview` false it only says so.
 */
export function ImpactPreview({
  baseVersionId,
  path,
  text,
  canPreview,
}: Draft & { canPreview: boolean }) {
  const [shown, setShown] = useState<{ draft: Draft; preview: Preview } | null>(null);
  // A plain mutation, not useAction: a preview writes nothing, so the page is not refreshed.
  const run = useMutation<Preview, ActionFailure, Draft>({
    mutationFn: previewDraft,
    onSuccess: (preview, draft) => setShown({ draft, preview }),
  });
  const stale =
    shown !== null &&
    (shown.draft.text !== text ||
      shown.draft.path !== path ||
      shown.draft.baseVersionId !== baseVersionId);

  return (
    <section
      data-testid="impact-preview"
      aria-label="Impact preview"
      className="space-y-3 rounded-md border border-slate-200 p-3"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h3 className="text-sm font-semibold text-slate-800">Impact</h3>
          <p className="text-xs text-slate-500">
            The eval set on version {baseVersionId} and on this draft, and recent prompts replayed
            under both. Nothing is saved.
          </p>
        </div>
        {canPreview ? (
          <Button
            variant="secondary"
            disabled={run.isPending}
            onClick={() => run.mutate({ baseVersionId, path, text })}
          >
            {run.isPending ? "Previewing…" : shown ? "Preview again" : "Preview impact"}
          </Button>
        ) : null}
      </div>
      {canPreview ? null : (
        <p className="text-sm text-slate-600">
          Previewing the impact of a change needs the editor role.
        </p>
      )}
      {run.isError ? <PreviewError failure={run.error} path={path} /> : null}
      {stale && !run.isPending ? (
        <p
          role="status"
          data-testid="impact-stale"
          className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          The draft changed since this preview: preview again to see the impact of the current text.
        </p>
      ) : null}
      {shown ? (
        <div
          aria-busy={run.isPending}
          className={stale || run.isPending ? "opacity-60" : undefined}
        >
          <ImpactPreviewReport preview={shown.preview} />
          <p className="mt-3 text-xs text-slate-500" data-testid="impact-time">
            Took {(shown.preview.ms / 1000).toFixed(1)} s against version{" "}
            {shown.preview.baseVersionId}.
          </p>
        </div>
      ) : null}
    </section>
  );
}
