import { structuredPatch } from "diff";
import { MAX_FILE_BYTES, utf8Length } from "./limits";
import type { ConstitutionFile } from "./parse";

/** Patch lines shown for one file; the rest are counted, and the files offered whole. */
export const MAX_DIFF_LINES_PER_FILE = 1000;
/** Patch lines shown for all files of one comparison together. */
export const MAX_DIFF_LINES = 3000;
/** Characters shown of one patch line; a longer line is cut and ends with "…". */
export const MAX_DIFF_LINE_CHARS = 300;
/** A file's line diff gives up past this many inserted and deleted lines (about a second of work). */
const MAX_EDITS = 2000;
/** All line diffs of one comparison together stop after this long; the files left say so. */
export const DIFF_TIME_BUDGET_MS = 2000;

/** One side of a compared file: its size, or null when the version has no such file. */
export type DiffSide = { bytes: number; lines: number } | null;

/**
 * One file of a comparison, bounded for a page. `shown` holds at most MAX_DIFF_LINES_PER_FILE
 * patch lines of at most MAX_DIFF_LINE_CHARS characters; `hidden` counts the patch lines left
 * out. `skipped` says why there is no line diff at all: a side over the file size limit, or
 * a diff that would take too long (too many changes, or the comparison's time is spent).
 */
export type BoundedDiff = {
  path: string;
  status: "added" | "removed" | "changed" | "unchanged";
  before: DiffSide;
  after: DiffSide;
  /** Null when the line diff was skipped. */
  additions: number | null;
  deletions: number | null;
  shown: string[];
  hidden: number;
  skipped: "too_large" | "too_slow" | null;
};

function side(text: string | undefined): DiffSide {
  if (text === undefined) return null;
  let lines = text.length > 0 && !text.endsWith("\n") ? 1 : 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
  return { bytes: utf8Length(text), lines };
}

const cut = (line: string) =>
  line.length > MAX_DIFF_LINE_CHARS ? `${line.slice(0, MAX_DIFF_LINE_CHARS)}…` : line;

/**
 * Line diffs, file by file (core.yaml first), between two versions' files, bounded so
 * a page showing them stays small and quick whatever the files hold: no file over
 * MAX_FILE_BYTES is diffed, diffing stops after DIFF_TIME_BUDGET_MS (`now` is the clock),
 * and at most MAX_DIFF_LINES patch lines are shown in all.
 */
export function boundedDiffs(
  before: readonly ConstitutionFile[],
  after: readonly ConstitutionFile[],
  now: () => number = Date.now,
): BoundedDiff[] {
  const a = new Map(before.map((f) => [f.path, f.text]));
  const b = new Map(after.map((f) => [f.path, f.text]));
  const paths = [...new Set([...a.keys(), ...b.keys()])].sort((x, y) =>
    x === "core.yaml" ? -1 : y === "core.yaml" ? 1 : x.localeCompare(y),
  );
  let budget = MAX_DIFF_LINES;
  const deadline = now() + DIFF_TIME_BUDGET_MS;
  return paths.map((path): BoundedDiff => {
    const oldText = a.get(path);
    const newText = b.get(path);
    const status: BoundedDiff["status"] =
      oldText === undefined
        ? "added"
        : newText === undefined
          ? "removed"
          : oldText === newText
            ? "unchanged"
            : "changed";
    const base = {
      path,
      status,
      before: side(oldText),
      after: side(newText),
      shown: [] as string[],
      hidden: 0,
    };
    if (status === "unchanged") return { ...base, additions: 0, deletions: 0, skipped: null };
    if ((base.before?.bytes ?? 0) > MAX_FILE_BYTES || (base.after?.bytes ?? 0) > MAX_FILE_BYTES)
      return { ...base, additions: null, deletions: null, skipped: "too_large" };
    const timeout = deadline - now();
    const patch =
      timeout > 0
        ? structuredPatch(`a/${path}`, `b/${path}`, oldText ?? "", newText ?? "", "", "", {
            context: 3,
            maxEditLength: MAX_EDITS,
            timeout,
          })
        : undefined;
    if (!patch) return { ...base, additions: null, deletions: null, skipped: "too_slow" };
    const lines = [`--- a/${path}`, `+++ b/${path}`];
    // As jsdiff's formatPatch writes hunk headers: an empty side starts at the line before.
    for (const hunk of patch.hunks)
      lines.push(
        `@@ -${hunk.oldStart - (hunk.oldLines === 0 ? 1 : 0)},${hunk.oldLines} +${hunk.newStart - (hunk.newLines === 0 ? 1 : 0)},${hunk.newLines} @@`,
        ...hunk.lines,
      );
    const body = lines.slice(2);
    const limit = Math.min(MAX_DIFF_LINES_PER_FILE, budget);
    budget -= Math.min(limit, lines.length);
    return {
      ...base,
      additions: body.filter((l) => l.startsWith("+")).length,
      deletions: body.filter((l) => l.startsWith("-")).length,
      shown: lines.slice(0, limit).map(cut),
      hidden: Math.max(0, lines.length - limit),
      skipped: null,
    };
  });
}
