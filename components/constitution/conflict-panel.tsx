"use client";
import { structuredPatch } from "diff";
import { useMemo, useState } from "react";
import { Button, ErrorText } from "@/components/ui/primitives";
import { MAX_DIFF_LINES_PER_FILE } from "@/lib/constitution/diff-limits";
import { PatchLines } from "./file-diffs";
import { describeLines, mergeThreeWay, type MergeConflict } from "./three-way-merge";

/** A save refused because `versionId` was saved after the base: their text of this file once fetched, or why it could not be. */
export type Conflict =
  | { versionId: number; loading: true }
  | { versionId: number; theirs: string }
  | { versionId: number; error: string };

/** A unified patch from `before` to `after`, hunk headers included, cut at the per-file line limit. */
function patchLines(
  path: string,
  before: string,
  after: string,
): { shown: string[]; hidden: number } {
  const lines = structuredPatch(path, path, before, after, "", "", { context: 3 }).hunks.flatMap(
    (h) => [`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`, ...h.lines],
  );
  return {
    shown: lines.slice(0, MAX_DIFF_LINES_PER_FILE),
    hidden: Math.max(0, lines.length - MAX_DIFF_LINES_PER_FILE),
  };
}

const where = (c: MergeConflict, versionId: number) =>
  `${describeLines(c.mine)} of your draft (${describeLines(c.theirs)} of version ${versionId}, ${describeLines(c.base)} of the version you edited)`;

/**
 * Shown when a save lost the race: what the other person changed in this file (the diff
 * from the version the draft is based on to the version now current), and "Re-apply my
 * draft on top", a three-way merge of the texts. A clean merge is handed to `onMerged` to
 * be reviewed and saved on top of `versionId`; overlapping edits are named by line and
 * the draft is left as it is.
 */
export function ConflictPanel({
  path,
  conflict,
  base,
  mine,
  reloadHref,
  onMerged,
}: {
  path: string;
  conflict: Conflict;
  base: string;
  mine: string;
  reloadHref: string;
  onMerged: (text: string, theirs: string) => void;
}) {
  const [clashes, setClashes] = useState<MergeConflict[] | null>(null);
  const theirs = "theirs" in conflict ? conflict.theirs : null;
  const patch = useMemo(
    () => (theirs === null ? null : patchLines(path, base, theirs)),
    [path, base, theirs],
  );

  return (
    <section
      aria-label="Conflicting change"
      className="space-y-3 rounded-md border border-amber-300 bg-amber-50 p-3"
    >
      <h3 className="text-sm font-semibold text-slate-900">
        Version {conflict.versionId} was saved while you edited; your change was not saved.
      </h3>
      {"loading" in conflict ? (
        <p className="text-sm text-slate-700">Fetching their change…</p>
      ) : "error" in conflict ? (
        <ErrorText>
          {conflict.error}{" "}
          <a className="font-medium underline" href={reloadHref}>
            Reload
          </a>
        </ErrorText>
      ) : (
        <>
          <p className="text-sm text-slate-700">
            {patch && patch.shown.length > 0
              ? `Their change to ${path}:`
              : `Version ${conflict.versionId} did not change ${path}; it changed other files.`}{" "}
            Your draft is kept below until you decide.
          </p>
          {patch && patch.shown.length > 0 ? (
            <div
              aria-label={`Their change to ${path}`}
              className="max-h-96 overflow-auto rounded-md border border-slate-200 bg-white"
            >
              <PatchLines lines={patch.shown} />
              {patch.hidden > 0 ? (
                <p className="border-t border-slate-200 px-3 py-2 text-sm text-slate-600">
                  {patch.hidden.toLocaleString("en")} more lines of this diff are not shown.
                </p>
              ) : null}
            </div>
          ) : null}
          <div className="flex flex-wrap items-center gap-3">
            <Button
              onClick={() => {
                const merged = mergeThreeWay(base, conflict.theirs, mine);
                if (merged.ok) {
                  setClashes(null);
                  onMerged(merged.text, conflict.theirs);
                } else setClashes(merged.conflicts);
              }}
            >
              Re-apply my draft on top
            </Button>
            <a className="text-sm font-medium text-indigo-700 underline" href={reloadHref}>
              Discard my draft and reload
            </a>
          </div>
          {clashes ? (
            <div role="alert" className="space-y-1 text-sm text-red-700">
              <p>
                Your draft and version {conflict.versionId} change the same{" "}
                {clashes.length === 1 ? "place" : `${clashes.length} places`}, so nothing was merged
                and your draft is unchanged:
              </p>
              <ul className="list-disc pl-5">
                {clashes.map((c, i) => (
                  <li key={i}>{where(c, conflict.versionId)}</li>
                ))}
              </ul>
              <p>
                Edit your draft to take their change into account (their lines are in the diff
                above), or reload and apply your change again.
              </p>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}
