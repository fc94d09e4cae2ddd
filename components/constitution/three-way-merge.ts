import { diffArrays } from "diff";

/** Lines `first` to `first + count - 1` (1-based) of one text; `count` 0 is a point between lines. */
export type LineRange = { first: number; count: number };
/** A place both sides changed differently: where it is in the base, in their text and in mine. */
export type MergeConflict = { base: LineRange; theirs: LineRange; mine: LineRange };
export type MergeResult = { ok: true; text: string } | { ok: false; conflicts: MergeConflict[] };

/** Base lines `start` to `end` (0-based, end excluded) replaced by `lines`. */
type Hunk = { start: number; end: number; lines: string[] };

/** Lines with their line breaks, so that joining them gives the text back byte for byte. */
const linesOf = (text: string): string[] => (text === "" ? [] : text.split(/(?<=\n)/));

/** What `side` changed in `base`, as hunks in base order. */
function hunks(base: string[], side: string[]): Hunk[] {
  const out: Hunk[] = [];
  let at = 0;
  let open: Hunk | null = null;
  for (const part of diffArrays(base, side)) {
    if (!part.added && !part.removed) {
      if (open) out.push(open);
      open = null;
      at += part.value.length;
      continue;
    }
    open ??= { start: at, end: at, lines: [] };
    if (part.removed) {
      at += part.value.length;
      open.end = at;
    } else open.lines.push(...part.value);
  }
  if (open) out.push(open);
  return out;
}

/** Base lines `start`..`end` with one side's hunks (all inside that span) applied. */
function applyWithin(base: string[], start: number, end: number, own: readonly Hunk[]): string[] {
  const out: string[] = [];
  let at = start;
  for (const h of own) {
    out.push(...base.slice(at, h.start), ...h.lines);
    at = h.end;
  }
  out.push(...base.slice(at, end));
  return out;
}

const shift = (own: readonly Hunk[]) =>
  own.reduce((n, h) => n + h.lines.length - (h.end - h.start), 0);

/**
 * A three-way merge of text by lines (diff3): the changes from `base` to `theirs` and from
 * `base` to `mine` are combined. Changes that touch different base lines both apply; a
 * place both sides changed (overlapping base lines, or insertions at the same point) merges
 * only when both made the same change, and is otherwise a conflict, located in all three
 * texts. Nothing is merged when there is a conflict.
 */
export function mergeThreeWay(base: string, theirs: string, mine: string): MergeResult {
  const b = linesOf(base);
  const sides = { theirs: hunks(b, linesOf(theirs)), mine: hunks(b, linesOf(mine)) };
  const all = [
    ...sides.theirs.map((h) => ({ ...h, side: "theirs" as const })),
    ...sides.mine.map((h) => ({ ...h, side: "mine" as const })),
  ].sort((x, y) => x.start - y.start || x.end - y.end);

  // Groups of hunks that overlap or start at the same line; each group is decided on its own.
  const groups: { start: number; end: number; hunks: typeof all }[] = [];
  for (const h of all) {
    const g = groups.at(-1);
    if (g && (h.start < g.end || h.start === g.start)) {
      g.end = Math.max(g.end, h.end);
      g.hunks.push(h);
    } else groups.push({ start: h.start, end: h.end, hunks: [h] });
  }

  const out: string[] = [];
  const conflicts: MergeConflict[] = [];
  const done = { theirs: [] as Hunk[], mine: [] as Hunk[] };
  let at = 0;
  for (const g of groups) {
    out.push(...b.slice(at, g.start));
    at = g.end;
    const own = {
      theirs: g.hunks.filter((h) => h.side === "theirs"),
      mine: g.hunks.filter((h) => h.side === "mine"),
    };
    const region = {
      theirs: applyWithin(b, g.start, g.end, own.theirs),
      mine: applyWithin(b, g.start, g.end, own.mine),
    };
    if (own.mine.length === 0 || region.mine.join("") === region.theirs.join(""))
      out.push(...region.theirs);
    else if (own.theirs.length === 0) out.push(...region.mine);
    else {
      conflicts.push({
        base: { first: g.start + 1, count: g.end - g.start },
        theirs: { first: g.start + shift(done.theirs) + 1, count: region.theirs.length },
        mine: { first: g.start + shift(done.mine) + 1, count: region.mine.length },
      });
    }
    done.theirs.push(...own.theirs);
    done.mine.push(...own.mine);
  }
  out.push(...b.slice(at));
  return conflicts.length > 0 ? { ok: false, conflicts } : { ok: true, text: out.join("") };
}

/** "line 4", "lines 4–6", or "after line 3" for an insertion point. */
export function describeLines({ first, count }: LineRange): string {
  if (count === 0) return first <= 1 ? "at the start" : `after line ${first - 1}`;
  return count === 1 ? `line ${first}` : `lines ${first}–${first + count - 1}`;
}
