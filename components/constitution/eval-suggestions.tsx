"use client";
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Button, ErrorText, Field, Input } from "@/components/ui/primitives";
import { ActionFailure } from "@/components/ui/use-action";
import type { ActionResult } from "@/lib/actions/result";
import { saveCoreAction } from "@/lib/actions/save-core";
import { saveOverlayAction } from "@/lib/actions/save-overlay";
import { suggestEvalFixAction } from "@/lib/actions/suggest-eval-fix";
import type { EvalFailure } from "@/lib/constitution";
import type { Suggestion } from "@/lib/constitution/suggest";
import { CORE_FILE } from "@/lib/constitution/schema";
import type { EvalSuggestions } from "@/lib/schemas/eval-suggestions";
import { deltaRows } from "./eval-metrics";
import { PatchLines } from "./file-diffs";
import { ImpactPreview } from "./impact-preview";
import { MetricDeltaTable } from "./metric-delta-table";

type Failure = Pick<EvalFailure, "file" | "line" | "kind">;

async function run<T>(result: Promise<ActionResult<T>>): Promise<T> {
  const done = await result;
  if (!done.ok) throw new ActionFailure(done.error);
  return done.data;
}

/** Saves the suggested file on top of the version it was made for, through the file's ordinary save action. */
function saveSuggested(input: {
  path: string;
  text: string;
  baseVersionId: number;
  message: string;
}) {
  const { path, ...rest } = input;
  if (path === CORE_FILE) return saveCoreAction(rest);
  const domain = /^overlays\/([a-z][a-z0-9_]*)\.ya?ml$/.exec(path)?.[1];
  if (!domain) throw new Error(`${path} is not core.yaml or an overlay`);
  return saveOverlayAction({ ...rest, domain });
}

/** The commit message and Apply: an ordinary save of the suggested file, audited like any other. */
function ApplySuggestion({
  versionId,
  failure,
  suggestion,
}: {
  versionId: number;
  failure: Failure;
  suggestion: Suggestion;
}) {
  const [message, setMessage] = useState(
    `Suggested fix for ${failure.file}:${failure.line}: ${suggestion.summary}`,
  );
  const save = useMutation<{ versionId: number }, ActionFailure, string>({
    mutationFn: (msg) =>
      run(
        saveSuggested({
          path: suggestion.path,
          text: suggestion.text,
          baseVersionId: versionId,
          message: msg,
        }),
      ),
  });
  if (save.isSuccess)
    return (
      <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
        Saved as version {save.data.versionId}.{" "}
        <Link className="font-medium underline" href="/constitution/evals">
          Show its evals
        </Link>
      </p>
    );
  return (
    <form
      aria-label="Apply the suggestion"
      className="space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(message);
      }}
    >
      <Field label="Commit message" hint="Applying saves a new version, shown in the history.">
        <Input value={message} onChange={(e) => setMessage(e.target.value)} />
      </Field>
      <Button type="submit" disabled={save.isPending || message.trim() === ""}>
        {save.isPending ? "Applying…" : "Apply"}
      </Button>
      {save.isError ? <ErrorText>{save.error.message}</ErrorText> : null}
    </form>
  );
}

function SuggestionView({
  found,
  failure,
  suggestion,
}: {
  found: EvalSuggestions;
  failure: Failure;
  suggestion: Suggestion;
}) {
  const others = suggestion.cleared.filter(
    (f) => f.file !== failure.file || f.line !== failure.line,
  );
  return (
    <div className="space-y-3" data-testid="eval-suggestion">
      <p className="text-sm text-slate-800">
        <span className="font-semibold">Suggestion:</span> {suggestion.summary}, in{" "}
        <code className="font-mono text-xs">{suggestion.path}</code>. It makes no other case worse.
        {others.length
          ? ` It also clears ${others.length} other ${others.length === 1 ? "failure" : "failures"}: ${others.map((f) => `${f.file}:${f.line}`).join(", ")}.`
          : ""}
      </p>
      <div className="overflow-hidden rounded-md border border-slate-200">
        <PatchLines lines={suggestion.diff.trimEnd().split("\n")} />
      </div>
      <MetricDeltaTable
        rows={deltaRows(suggestion.comparison.metrics, [])}
        label="The eval before and after the suggestion"
        before={`Version ${found.versionId}`}
        after="With the suggestion"
        testIdPrefix="suggestion-delta"
      />
      <ImpactPreview
        baseVersionId={found.versionId}
        path={suggestion.path}
        text={suggestion.text}
        canPreview
      />
      <ApplySuggestion versionId={found.versionId} failure={failure} suggestion={suggestion} />
    </div>
  );
}

/**
 * "Suggest a fix" for one eval failure: the smallest edit of a keyword list or a `NOT
 * for:` sentence that clears it without making another case worse, as a diff with its
 * metric change and the impact preview; Apply saves it as a new version. Nothing
 * changes until then. Needs the editor role (the action says so to a viewer).
 */
export function EvalSuggestion({ versionId, failure }: { versionId: number; failure: Failure }) {
  const suggest = useMutation<EvalSuggestions, ActionFailure>({
    mutationFn: () =>
      run(suggestEvalFixAction({ versionId, file: failure.file, line: failure.line })),
  });
  const found = suggest.data;
  const mine = found?.failures.find((f) => f.failure.kind === failure.kind);
  return (
    <div className="space-y-2">
      {found ? null : (
        <Button
          variant="secondary"
          className="px-2 py-0.5 text-xs"
          disabled={suggest.isPending}
          onClick={() => suggest.mutate()}
        >
          {suggest.isPending ? "Searching for a fix…" : "Suggest a fix"}
        </Button>
      )}
      {suggest.isError ? <ErrorText>{suggest.error.message}</ErrorText> : null}
      {found && mine?.suggestion ? (
        <SuggestionView found={found} failure={failure} suggestion={mine.suggestion} />
      ) : found && !mine ? (
        <p role="status" className="text-sm text-slate-600" data-testid="eval-suggestion-none">
          This case does not fail this way when measured again on version {found.versionId}: nothing
          to fix.
        </p>
      ) : found ? (
        <p role="status" className="text-sm text-slate-600" data-testid="eval-suggestion-none">
          {found.search === "complete"
            ? `No single edit fixes it without breaking another case (${found.tried} tried in ${(found.ms / 1000).toFixed(1)} s).`
            : `No single edit found within the limit (${found.tried} of ${found.candidates} tried in ${(found.ms / 1000).toFixed(1)} s).`}
        </p>
      ) : null}
    </div>
  );
}
