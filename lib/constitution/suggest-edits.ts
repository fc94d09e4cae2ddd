import type { Constitution, Principle } from "./schema";
import { stemSequence } from "./text";

/**
 * The one-item edits an eval suggestion may propose (suggest.ts): what each is, how it
 * reads, and what it does to a constitution in memory. suggest-candidates.ts chooses
 * which of them to try for a failing case.
 */

/** Whose keywords an edit changes: an overlay's own list, or one principle's (in core.yaml when `domain` is null). */
export type KeywordTarget =
  { kind: "overlay"; domain: string } | { kind: "principle"; id: string; domain: string | null };

export type SuggestedEdit =
  /** A word or phrase of the prompt added to a keyword list. */
  | { op: "add_keyword"; target: KeywordTarget; keyword: string }
  /** The keywords of a list that match one word or phrase of the prompt, removed (all spellings of that stem). */
  | { op: "remove_keyword"; target: KeywordTarget; keywords: string[] }
  /** A word of the prompt added to an overlay description's `NOT for:` sentence. */
  | { op: "add_not_for"; domain: string; word: string };

/** A stable identity for an edit (equal edits, equal keys). */
export const editKey = (edit: SuggestedEdit): string => JSON.stringify(edit);

/** An edit's size, smallest first: the words it adds (a phrase counts each of its words); a removal or a `NOT for:` word is 1. */
export function editSize(edit: SuggestedEdit): number {
  return edit.op === "add_keyword" ? stemSequence(edit.keyword).length : 1;
}

const quoted = (words: readonly string[]) => words.map((w) => `"${w}"`).join(", ");
const listName = (t: KeywordTarget) =>
  t.kind === "overlay" ? `the ${t.domain} overlay's keywords` : `${t.id}'s keywords`;

/** The edit as a sentence: `add "fifa" to the gaming overlay's keywords`. */
export function describeEdit(edit: SuggestedEdit): string {
  switch (edit.op) {
    case "add_keyword":
      return `add "${edit.keyword}" to ${listName(edit.target)}`;
    case "remove_keyword":
      return `remove ${quoted(edit.keywords)} from ${listName(edit.target)}`;
    case "add_not_for":
      return `add "${edit.word}" to the ${edit.domain} overlay's "NOT for:" sentence`;
  }
}

/**
 * `description` with `word` added to its trailing `NOT for:` sentence (text.ts
 * splitNotFor), or with a `NOT for:` sentence holding only `word` when it has none.
 */
export function withNotFor(description: string, word: string): string {
  const text = description.trimEnd();
  if (!/\bNOT for:/.test(text)) return text ? `${text} NOT for: ${word}.` : `NOT for: ${word}.`;
  return text.endsWith(".") ? `${text.slice(0, -1)}, ${word}.` : `${text}, ${word}`;
}

export function definition(
  c: Constitution,
  id: string,
  domain: string | null,
): Principle | undefined {
  return domain === null
    ? c.core.find((p) => p.id === id)
    : c.overlays[domain]?.additional_principles.find((p) => p.id === id);
}

/** The keyword list an edit targets, or null when it names nothing (or an excluded overlay, which is never indexed). */
export function keywordsOf(c: Constitution, t: KeywordTarget): readonly string[] | null {
  if (t.kind === "overlay") {
    const overlay = c.overlays[t.domain];
    return overlay && !overlay.excluded ? overlay.keywords : null;
  }
  if (t.domain !== null && c.overlays[t.domain]?.excluded) return null;
  return definition(c, t.id, t.domain)?.keywords ?? null;
}

function withKeywords(
  c: Constitution,
  t: KeywordTarget,
  change: (keywords: string[]) => string[],
): Constitution {
  if (t.kind === "overlay") {
    const overlay = c.overlays[t.domain]!;
    return {
      ...c,
      overlays: { ...c.overlays, [t.domain]: { ...overlay, keywords: change(overlay.keywords) } },
    };
  }
  const patch = (ps: Principle[]) =>
    ps.map((p) => (p.id === t.id ? { ...p, keywords: change(p.keywords) } : p));
  if (t.domain === null) return { ...c, core: patch(c.core) };
  const overlay = c.overlays[t.domain]!;
  return {
    ...c,
    overlays: {
      ...c.overlays,
      [t.domain]: { ...overlay, additional_principles: patch(overlay.additional_principles) },
    },
  };
}

/** A copy of the constitution with the edit made (the original is not changed; unchanged parts are shared). */
export function applyEdit(c: Constitution, edit: SuggestedEdit): Constitution {
  switch (edit.op) {
    case "add_keyword":
      return withKeywords(c, edit.target, (ks) => [...ks, edit.keyword]);
    case "remove_keyword": {
      const gone = new Set(edit.keywords.map((k) => k.toLowerCase()));
      return withKeywords(c, edit.target, (ks) => ks.filter((k) => !gone.has(k.toLowerCase())));
    }
    case "add_not_for": {
      const overlay = c.overlays[edit.domain]!;
      return {
        ...c,
        overlays: {
          ...c.overlays,
          [edit.domain]: { ...overlay, description: withNotFor(overlay.description, edit.word) },
        },
      };
    }
  }
}
