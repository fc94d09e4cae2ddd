import { stemmer } from "stemmer";

// Function words only: BM25's IDF handles the rest (retrieval.md: a stoplist of
// generic request words did not help).
const STOPWORDS = new Set(
  "a an and are as at be been but by can could did do does for from had has have how i i'm if in into is it its me my of on or our so than that the their them then there these they this to was we were what when where which who why will with would you your".split(
    " ",
  ),
);

/** Lower-case word tokens of a text (letters and digits, any script). */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu) ?? [];
}

// Building an index stems the same few thousand words over and over (every field of every
// principle, per overlay), and that was most of its cost. Stems are kept, up to a bound:
// a long-lived server sees unbounded prompt vocabulary.
const STEM_CACHE_LIMIT = 50_000;
const stemCache = new Map<string, string>();

function stem(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
    s = stemmer(word);
    stemCache.set(word, s);
  }
  return s;
}

/** A token as indexed: stopwords dropped (null), the rest Porter-stemmed. */
export function normalizeTerm(term: string): string | null {
  const t = term.toLowerCase();
  if (STOPWORDS.has(t) || t.length < 2) return null;
  return stem(t);
}

/** The distinct stems of a text. */
export function stems(text: string): Set<string> {
  const out = new Set<string>();
  for (const t of tokenize(text)) {
    const s = normalizeTerm(t);
    if (s) out.add(s);
  }
  return out;
}

const NOT_FOR = /\bNOT for:\s*(.*)$/s;

/** Splits an overlay description into what it covers and its trailing `NOT for: ...` sentence. */
export function splitNotFor(description: string): { covers: string; notFor: string } {
  const match = NOT_FOR.exec(description);
  if (!match) return { covers: description, notFor: "" };
  // "(use mental_health)"-style pointers name other domains; they are not words a prompt would use.
  const notFor = (match[1] ?? "").replace(/\([^)]*\)/g, " ").trim();
  return { covers: description.slice(0, match.index).trim(), notFor };
}

/** The stems of a text in order, stopwords left out (for phrase matching). */
export function stemSequence(text: string): string[] {
  return tokenize(text).flatMap((t) => normalizeTerm(t) ?? []);
}
