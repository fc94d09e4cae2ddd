import { COMMON_STEMS } from "./common-words";
import type { CaseResult, FailureKind } from "./eval";
import type { EvalCase } from "./eval-schema";
import type { Constitution, Principle } from "./schema";
import {
  definition,
  editKey,
  editSize,
  keywordsOf,
  type KeywordTarget,
  type SuggestedEdit,
} from "./suggest-edits";
import { normalizeTerm, splitNotFor, stemSequence, stems, tokenize } from "./text";

/** Which edits an eval suggestion tries for a failing case, in which order (suggest.ts tries them). */

/** A word of a prompt as retrieval indexes it, where it stands in the lower-cased prompt, and whether it is specific (not an everyday word or a number). */
type PromptWord = { text: string; stem: string; start: number; end: number; specific: boolean };

function promptWords(lower: string): PromptWord[] {
  const out: PromptWord[] = [];
  let at = 0;
  for (const token of tokenize(lower)) {
    const start = lower.indexOf(token, at);
    if (start < 0) continue;
    at = start + token.length;
    const stem = normalizeTerm(token);
    if (!stem) continue;
    const specific = !COMMON_STEMS.has(stem) && !/^\p{N}+$/u.test(token);
    out.push({ text: token, stem, start, end: at, specific });
  }
  return out;
}

/** Between the two words of a pair only spaces and dropped words (stopwords): no punctuation. */
const PAIR_GAP = /^[\s\p{L}\p{N}']*$/u;

/**
 * The words a suggestion may take from a prompt: its specific words, one per stem, in
 * order; and its adjacent pairs of indexed words (at least one specific, nothing but
 * stopwords and spaces between them), written as the prompt writes them.
 */
export function promptTerms(prompt: string): { words: string[]; pairs: string[] } {
  const lower = prompt.toLowerCase();
  const all = promptWords(lower);
  const seen = new Set<string>();
  const words = all.filter((w) => w.specific && !seen.has(w.stem) && seen.add(w.stem));
  const pairs = new Set<string>();
  all.forEach((a, i) => {
    const b = all[i + 1];
    if (!b || a.stem === b.stem || !(a.specific || b.specific)) return;
    if (PAIR_GAP.test(lower.slice(a.end, b.start))) pairs.add(lower.slice(a.start, b.end));
  });
  return { words: words.map((w) => w.text), pairs: [...pairs] };
}

const stemKey = (text: string) => stemSequence(text).join(" ");

/** The keywords of `keywords` the prompt matches (a single word by stem, a phrase whole and in order), grouped by stem. */
function matchedKeywords(keywords: readonly string[], prompt: string): string[][] {
  const sequence = ` ${stemSequence(prompt).join(" ")} `;
  const promptStems = stems(prompt);
  const groups = new Map<string, string[]>();
  for (const k of keywords) {
    const seq = stemSequence(k);
    const hit =
      seq.length === 1 ? promptStems.has(seq[0]!) : sequence.includes(` ${seq.join(" ")} `);
    if (seq.length === 0 || !hit) continue;
    const key = seq.join(" ");
    groups.set(key, [...(groups.get(key) ?? []), k]);
  }
  return [...groups.values()];
}

/** The overlays a case's failures point at, each once, in order, that retrieval indexes. */
function indexedDomains(c: Constitution, domains: readonly (string | null | undefined)[]) {
  return [...new Set(domains)].filter(
    (d): d is string => typeof d === "string" && !!c.overlays[d] && !c.overlays[d].excluded,
  );
}

/** The overlay whose definition of `id` was injected: the first detected domain that defines it. */
function bringer(c: Constitution, id: string, detected: readonly string[]): string | null {
  const defines = (d: string) => c.overlays[d]?.additional_principles.some((p) => p.id === id);
  if (c.core.some((p) => p.id === id)) return null;
  return detected.find(defines) ?? Object.keys(c.overlays).sort().find(defines) ?? null;
}

/** Where to add a keyword for an expected principle: core, or its overlay (one of the case's domains first). */
function principleTarget(
  c: Constitution,
  id: string,
  domains: readonly string[],
): KeywordTarget | null {
  if (c.core.some((p) => p.id === id)) return { kind: "principle", id, domain: null };
  const defining = Object.keys(c.overlays)
    .filter((d) => c.overlays[d]!.additional_principles.some((p) => p.id === id))
    .sort(
      (a, b) => Number(domains.includes(b)) - Number(domains.includes(a)) || a.localeCompare(b),
    );
  return defining[0] ? { kind: "principle", id, domain: defining[0] } : null;
}

/**
 * The stems a keyword list's owner already speaks of: an overlay's description (what it
 * covers), the words of its keyword phrases, and its principles' titles, rules, examples
 * and keywords; a principle's own title, rule and examples, less its overlay's keywords.
 * A prompt word among them is on topic, and is tried before one that is not ("killer"
 * for violent crime before "finally").
 */
function topicStems(c: Constitution, t: KeywordTarget): Set<string> {
  const textOf = (p: Principle) =>
    [p.title, p.rule, ...p.examples_allow, ...p.examples_deny, ...p.keywords].join(" . ");
  if (t.kind === "overlay") {
    const overlay = c.overlays[t.domain];
    if (!overlay) return new Set();
    const covers = splitNotFor(overlay.description).covers;
    return stems(
      [covers, ...overlay.keywords, ...overlay.additional_principles.map(textOf)].join(" . "),
    );
  }
  const p = definition(c, t.id, t.domain);
  // The overlay's own keywords say which domain a prompt is in, not which of its principles applies.
  const domainWords = stems(
    t.domain === null ? "" : (c.overlays[t.domain]?.keywords ?? []).join(" "),
  );
  return new Set([...stems(p ? textOf(p) : "")].filter((s) => !domainWords.has(s)));
}

/**
 * The candidate edits for a case's failures, smallest first (editSize), then words on
 * the list's topic (topicStems) before the rest, then in a fixed order; each once, none
 * that would change nothing:
 * - a domain missed: a word of the prompt added to an expected overlay's keywords, then
 *   to the `NOT for:` of a domain detected instead, then a pair of words as a phrase;
 * - a principle missed: a word added to an expected principle's keywords, then to its
 *   overlay's (or an expected domain's), then pairs, in the same order;
 * - a false injection or a trap: a word added to the `NOT for:` of the domain that brought
 *   the principle, then a keyword the prompt matches removed from that overlay or from the
 *   principle (a core principle: from its own keywords only).
 */
export function candidateEdits(
  c: Constitution,
  evalCase: EvalCase,
  result: CaseResult,
  kinds: readonly FailureKind[],
): SuggestedEdit[] {
  const { words, pairs } = promptTerms(evalCase.prompt);
  const out: { edit: SuggestedEdit; offTopic: boolean }[] = [];
  const push = (edit: SuggestedEdit, offTopic = false) => out.push({ edit, offTopic });
  const add = (targets: readonly KeywordTarget[], terms: readonly string[]) => {
    for (const target of targets) {
      const keywords = keywordsOf(c, target);
      if (!keywords) continue;
      const have = new Set(keywords.map(stemKey));
      const topic = topicStems(c, target);
      for (const keyword of terms)
        if (!have.has(stemKey(keyword)))
          push(
            { op: "add_keyword", target, keyword },
            !stemSequence(keyword).some((s) => topic.has(s)),
          );
    }
  };
  const notFor = (domains: readonly string[]) => {
    for (const domain of domains) {
      const overlay = c.overlays[domain]!;
      const taken = new Set([
        ...stems(splitNotFor(overlay.description).notFor),
        ...stems(overlay.keywords.join(" ")),
      ]);
      for (const word of words)
        if (!taken.has(normalizeTerm(word)!)) push({ op: "add_not_for", domain, word });
    }
  };
  const remove = (targets: readonly KeywordTarget[]) => {
    for (const target of targets)
      for (const keywords of matchedKeywords(keywordsOf(c, target) ?? [], evalCase.prompt))
        push({ op: "remove_keyword", target, keywords });
  };
  const removeFor = (ids: readonly string[]) => {
    const domains = indexedDomains(
      c,
      ids.map((id) => bringer(c, id, result.domains)),
    );
    notFor(domains);
    remove(domains.map((domain): KeywordTarget => ({ kind: "overlay", domain })));
    remove(
      ids.map((id): KeywordTarget => ({
        kind: "principle",
        id,
        domain: bringer(c, id, result.domains),
      })),
    );
  };

  for (const kind of kinds) {
    if (kind === "domain_miss") {
      const expected = indexedDomains(c, evalCase.domains).map((domain): KeywordTarget => ({
        kind: "overlay",
        domain,
      }));
      add(expected, words);
      notFor(
        indexedDomains(
          c,
          result.domains.filter((d) => !evalCase.domains.includes(d)),
        ),
      );
      add(expected, pairs);
    } else if (kind === "principle_miss") {
      const principles = evalCase.expect.flatMap(
        (id) => principleTarget(c, id, evalCase.domains) ?? [],
      );
      const overlays = indexedDomains(c, [
        ...principles.map((t) => (t.kind === "principle" ? t.domain : null)),
        ...evalCase.domains,
      ]).map((domain): KeywordTarget => ({ kind: "overlay", domain }));
      add(principles, words);
      add(overlays, words);
      add(principles, pairs);
      add(overlays, pairs);
    } else if (kind === "false_injection") removeFor(result.false_injections);
    else removeFor(result.trapped);
  }
  const seen = new Set<string>();
  return out
    .filter(({ edit }) => !seen.has(editKey(edit)) && seen.add(editKey(edit)))
    .map((e, order) => ({ ...e, order, size: editSize(e.edit) }))
    .sort((a, b) => a.size - b.size || Number(a.offTopic) - Number(b.offTopic) || a.order - b.order)
    .map((e) => e.edit);
}
