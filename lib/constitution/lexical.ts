import MiniSearch, { type AsPlainObject, type Options } from "minisearch";
import { allDefinitions } from "./overlay";
import type { Constitution } from "./schema";
import { COMMON_STEMS } from "./common-words";
import { normalizeTerm, splitNotFor, stemSequence, stems, tokenize } from "./text";

/** A detected domain with its confidence (0..1) and why. */
export type DomainHit = {
  domain: string;
  confidence: number;
  score: number;
  matched_terms: string[];
  matched_phrases: string[];
  penalized_by: string[];
  /** The semantic step's confidence, when it ran (hybrid.ts). */
  semantic?: number;
  /** The learned models' logit added to the lexical confidence, when a model exists (learn.ts). */
  learned?: number;
  /** True when the prompt was labelled with this domain (learn.ts readPrompt): confidence 1. */
  labelled?: boolean;
};
/** How well a principle's own text matches a prompt (0..1), and on which terms; `semantic` when the semantic step ran. */
export type PrincipleMatch = {
  confidence: number;
  matched_terms: string[];
  matched_phrases: string[];
  /** True when the match rests on none of the principle's keywords (its examples or rule alone): a domain does not carry such a match. */
  weak?: boolean;
  semantic?: number;
  /** The learned model's logit added to the lexical confidence, when a model exists (learn.ts). */
  learned?: number;
};

/** BM25 settings measured best for domain detection (retrieval.md: k1 = 2, b = 0). */
export const DOMAIN_BM25 = { k: 2, b: 0, d: 0.5 } as const;
/** Field weights for domain detection: the curated keyword lists count most; descriptions, titles and examples support them; rules are not indexed. */
export const DOMAIN_FIELD_WEIGHTS = {
  keywords: 3,
  principle_keywords: 1,
  description: 0.5,
  titles: 0.5,
  deny: 0.5,
  allow: 0.25,
} as const;
export const PRINCIPLE_FIELD_WEIGHTS = {
  title: 2,
  keywords: 2,
  deny: 1.5,
  allow: 1,
  rule: 0.5,
} as const;
/** A score that maps to confidence 0.5: confidence = score / (score + half). */
export const DOMAIN_HALF_SCORE = 6;
export const PRINCIPLE_HALF_SCORE = 4;
/** Each `NOT for:` stem found in the prompt halves a domain's score, at most twice. */
export const NOT_FOR_PENALTY = 0.5;
/** An everyday word (common-words.ts) counts this much of a specific one. */
export const COMMON_WORD_WEIGHT = 0.2;
/**
 * BM25 rates a word by how few documents hold it, so with a handful of overlays every
 * word looks common and nothing reaches the absolute floor. Empty background documents
 * bring each index up to this many, so scores (and the calibrated thresholds) mean the
 * same on a three-overlay constitution as on the shipped twenty.
 */
export const MIN_INDEXED = { domains: 20, principles: 80 } as const;
/**
 * A match needs evidence: a keyword or keyword phrase of its own, or two specific
 * (non-everyday) words. A match on less, one word from its examples say, keeps only
 * this share of its score, which ranks it for the LLM prefilter but keeps it under the floor.
 */
export const WEAK_EVIDENCE = 0.25;
/** A multi-word keyword found whole in the prompt adds this much score per word it has. */
export const PHRASE_BONUS = { domain: 6, principle: 4 } as const;

type DomainDoc = { id: string } & Record<keyof typeof DOMAIN_FIELD_WEIGHTS, string>;
type PrincipleDoc = { id: string } & Record<keyof typeof PRINCIPLE_FIELD_WEIGHTS, string>;

const boostTerm = (term: string) => (COMMON_STEMS.has(term) ? COMMON_WORD_WEIGHT : 1);
const searchOptions = {
  processTerm: normalizeTerm,
  tokenize,
  combineWith: "OR" as const,
  prefix: false,
  fuzzy: false,
  boostTerm,
};

/**
 * The one-word keywords, as indexed text. A multi-word keyword counts only whole
 * (PhraseIndex): its words alone ("short" of "short story") say little.
 */
function singleWords(keywords: readonly string[]): string {
  return keywords.filter((k) => stemSequence(k).length === 1).join(" . ");
}

type Phrase = { text: string; stems: string[] };
/** A phrase as plain data: its owner (domain or principle id), its text, its stems joined by spaces. */
type PhraseRow = [owner: string, text: string, stems: string];

/**
 * The multi-word keywords of many documents, found whole and in order in a prompt's
 * stem sequence. Indexed by first stem, so a search looks only at phrases that can start
 * at each word of the prompt.
 */
class PhraseIndex {
  private readonly byFirst = new Map<string, { owner: string; phrase: Phrase }[]>();

  /** An index holding `rows` (from `rows()`), in their order: no stemming again. */
  static fromRows(rows: readonly PhraseRow[]): PhraseIndex {
    const index = new PhraseIndex();
    for (const [owner, text, stems] of rows) index.insert(owner, { text, stems: stems.split(" ") });
    return index;
  }

  /** Every phrase as `[owner, text, stems joined by spaces]`, in index order: compact plain data. */
  rows(): PhraseRow[] {
    return [...this.byFirst.values()].flatMap((list) =>
      list.map(({ owner, phrase }): PhraseRow => [owner, phrase.text, phrase.stems.join(" ")]),
    );
  }

  add(owner: string, keywords: readonly string[]): void {
    for (const text of keywords) {
      const stems = stemSequence(text);
      if (stems.length < 2) continue; // single words are BM25's job
      this.insert(owner, { text, stems });
    }
  }

  private insert(owner: string, phrase: Phrase): void {
    const list = this.byFirst.get(phrase.stems[0]!) ?? [];
    list.push({ owner, phrase });
    this.byFirst.set(phrase.stems[0]!, list);
  }

  /** The phrases found in `sequence`, by owner, each once. */
  find(sequence: readonly string[]): Map<string, Phrase[]> {
    const out = new Map<string, Phrase[]>();
    sequence.forEach((stem, i) => {
      for (const { owner, phrase } of this.byFirst.get(stem) ?? []) {
        if (!phrase.stems.every((s, j) => sequence[i + j] === s)) continue;
        const found = out.get(owner) ?? [];
        if (!found.includes(phrase)) found.push(phrase);
        out.set(owner, found);
      }
    });
    return out;
  }
}

function confidence(score: number, half: number): number {
  return score <= 0 ? 0 : round4(score / (score + half));
}

const DOMAIN_OPTIONS: Options<DomainDoc> = {
  fields: Object.keys(DOMAIN_FIELD_WEIGHTS),
  idField: "id",
  tokenize,
  processTerm: normalizeTerm,
  searchOptions,
};
const PRINCIPLE_OPTIONS: Options<PrincipleDoc> = {
  fields: Object.keys(PRINCIPLE_FIELD_WEIGHTS),
  idField: "id",
  tokenize,
  processTerm: normalizeTerm,
  searchOptions,
};

/**
 * A built LexicalIndex as plain, JSON-safe data, for a cache kept outside the engine
 * (the engine does no I/O). Valid only for the constitution it was built from and for
 * the engine build that made it: a cache keys it by both.
 */
export type LexicalIndexSnapshot = {
  format: typeof SNAPSHOT_FORMAT;
  domains: AsPlainObject;
  principles: AsPlainObject;
  notFor: [string, string[]][];
  domainPhrases: PhraseRow[];
  principlePhrases: PhraseRow[];
};
const SNAPSHOT_FORMAT = 2;

/**
 * A lexical index of a constitution: BM25 (MiniSearch) over each overlay's
 * description, keywords, principle titles and examples for domain detection, and
 * over principles for matching them. Everyday words are damped, multi-word keywords
 * found whole add a bonus. Pure and synchronous; build once per version, or load a
 * snapshot of one (`toSnapshot`, `fromSnapshot`), which skips tokenizing and stemming.
 */
export class LexicalIndex {
  private readonly domains: MiniSearch<DomainDoc>;
  private readonly principles: MiniSearch<PrincipleDoc>;
  private readonly notFor: Map<string, Set<string>>;
  private readonly domainPhrases: PhraseIndex;
  private readonly principlePhrases: PhraseIndex;

  constructor(
    private readonly constitution: Constitution,
    snapshot?: LexicalIndexSnapshot,
  ) {
    if (snapshot) {
      if (snapshot.format !== SNAPSHOT_FORMAT)
        throw new Error(
          `lexical index snapshot format ${String(snapshot.format)} is not ${SNAPSHOT_FORMAT}`,
        );
      this.domains = MiniSearch.loadJS(snapshot.domains, DOMAIN_OPTIONS);
      this.principles = MiniSearch.loadJS(snapshot.principles, PRINCIPLE_OPTIONS);
      this.notFor = new Map(snapshot.notFor.map(([domain, stems]) => [domain, new Set(stems)]));
      this.domainPhrases = PhraseIndex.fromRows(snapshot.domainPhrases);
      this.principlePhrases = PhraseIndex.fromRows(snapshot.principlePhrases);
      return;
    }
    this.domains = new MiniSearch<DomainDoc>(DOMAIN_OPTIONS);
    this.principles = new MiniSearch<PrincipleDoc>(PRINCIPLE_OPTIONS);
    this.notFor = new Map();
    this.domainPhrases = new PhraseIndex();
    this.principlePhrases = new PhraseIndex();

    const domainDocs: DomainDoc[] = [];
    for (const overlay of Object.values(constitution.overlays)) {
      if (overlay.excluded) continue;
      const { covers, notFor } = splitNotFor(overlay.description);
      const own = stems(overlay.keywords.join(" "));
      this.notFor.set(overlay.domain, new Set([...stems(notFor)].filter((s) => !own.has(s))));
      this.domainPhrases.add(overlay.domain, overlay.keywords);
      const ps = overlay.additional_principles;
      domainDocs.push({
        id: overlay.domain,
        keywords: singleWords(overlay.keywords),
        description: covers,
        titles: ps.map((p) => p.title).join(" . "),
        deny: ps.flatMap((p) => p.examples_deny).join(" . "),
        allow: ps.flatMap((p) => p.examples_allow).join(" . "),
        principle_keywords: singleWords(ps.flatMap((p) => p.keywords)),
      });
    }
    this.domains.addAll([
      ...domainDocs,
      ...background(MIN_INDEXED.domains - domainDocs.length, DOMAIN_FIELD_WEIGHTS),
    ]);
    // Scores are by id: an id two overlays define differently is one document holding both definitions' words.
    const byId = new Map<string, ReturnType<typeof allDefinitions>>();
    for (const p of allDefinitions(constitution)) byId.set(p.id, [...(byId.get(p.id) ?? []), p]);
    const docs: PrincipleDoc[] = [];
    for (const [id, definitions] of byId) {
      const keywords = [...new Set(definitions.flatMap((p) => p.keywords))];
      const text = (field: (p: (typeof definitions)[number]) => string) =>
        [...new Set(definitions.map(field))].join(" . ");
      this.principlePhrases.add(id, keywords);
      docs.push({
        id,
        title: text((p) => p.title),
        keywords: singleWords(keywords),
        deny: text((p) => p.examples_deny.join(" . ")),
        allow: text((p) => p.examples_allow.join(" . ")),
        rule: text((p) => p.rule),
      });
    }
    this.principles.addAll([
      ...docs,
      ...background(MIN_INDEXED.principles - docs.length, PRINCIPLE_FIELD_WEIGHTS),
    ]);
  }

  /**
   * Domains ranked for a prompt, with `NOT for:` scoping applied: at most `max`, none
   * below `minConfidence`, none scoring under `relativeCutoff` of the best domain's score.
   */
  detectDomains(
    prompt: string,
    options: { max: number; minConfidence: number; relativeCutoff?: number },
  ): DomainHit[] {
    const promptStems = stems(prompt);
    const sequence = stemSequence(prompt);
    const found = new Map<
      string,
      { score: number; terms: string[]; match: Record<string, string[]> }
    >();
    for (const r of this.domains.search(prompt, { boost: DOMAIN_FIELD_WEIGHTS, bm25: DOMAIN_BM25 }))
      found.set(String(r.id), r as typeof r & { terms: string[] });
    const phraseHits = this.domainPhrases.find(sequence);
    const hits: DomainHit[] = [];
    for (const domain of this.knownDomains()) {
      const phrases = phraseHits.get(domain) ?? [];
      const bm25 = found.get(domain);
      if (!bm25 && phrases.length === 0) continue;
      const penalizedBy = [...(this.notFor.get(domain) ?? [])].filter((s) => promptStems.has(s));
      const raw =
        (bm25?.score ?? 0) + phrases.reduce((n, p) => n + PHRASE_BONUS.domain * p.stems.length, 0);
      const evidence = hasEvidence(bm25?.match ?? {}, phrases.length, ["keywords"])
        ? 1
        : WEAK_EVIDENCE;
      const score = raw * evidence * NOT_FOR_PENALTY ** Math.min(penalizedBy.length, 2);
      hits.push({
        domain,
        score: round4(score),
        confidence: confidence(score, DOMAIN_HALF_SCORE),
        matched_terms: [...(bm25?.terms ?? [])].sort(),
        matched_phrases: phrases.map((p) => p.text),
        penalized_by: penalizedBy,
      });
    }
    const best = Math.max(0, ...hits.map((h) => h.score));
    const floor = best * (options.relativeCutoff ?? 0);
    return hits
      .filter((h) => h.confidence > 0 && h.confidence >= options.minConfidence && h.score >= floor)
      .sort((a, b) => b.score - a.score || a.domain.localeCompare(b.domain))
      .slice(0, options.max);
  }

  /** Lexical relevance (0..1) of each principle's own text to a prompt, by id; unmatched principles are absent. */
  principleScores(prompt: string): Map<string, PrincipleMatch> {
    const sequence = stemSequence(prompt);
    const out = new Map<string, PrincipleMatch>();
    const bm25 = new Map(
      this.principles
        .search(prompt, { boost: PRINCIPLE_FIELD_WEIGHTS })
        .map((r) => [String(r.id), r] as const),
    );
    const phraseHits = this.principlePhrases.find(sequence);
    for (const id of new Set([...bm25.keys(), ...phraseHits.keys()])) {
      const found = phraseHits.get(id) ?? [];
      const r = bm25.get(id);
      if (!r && found.length === 0) continue;
      const raw =
        (r?.score ?? 0) + found.reduce((n, p) => n + PHRASE_BONUS.principle * p.stems.length, 0);
      // A principle's own match should rest on one of its keywords: without one, its examples and rule count a quarter.
      const weak = !hasEvidence(r?.match ?? {}, found.length, ["keywords"], false);
      const score = raw * (weak ? WEAK_EVIDENCE : 1);
      out.set(id, {
        confidence: confidence(score, PRINCIPLE_HALF_SCORE),
        matched_terms: [...(r?.terms ?? [])].sort(),
        matched_phrases: found.map((p) => p.text),
        ...(weak ? { weak } : {}),
      });
    }
    return out;
  }

  /** The built index as plain data: `new LexicalIndex(constitution, snapshot)` answers exactly as this one. */
  toSnapshot(): LexicalIndexSnapshot {
    return {
      format: SNAPSHOT_FORMAT,
      domains: this.domains.toJSON(),
      principles: this.principles.toJSON(),
      notFor: [...this.notFor].map(([domain, stems]) => [domain, [...stems]]),
      domainPhrases: this.domainPhrases.rows(),
      principlePhrases: this.principlePhrases.rows(),
    };
  }

  /** The domains this index knows (excluded overlays are not indexed). */
  knownDomains(): string[] {
    return Object.values(this.constitution.overlays)
      .filter((o) => !o.excluded)
      .map((o) => o.domain);
  }
}

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

/** Whether a match rests on a phrase, a non-everyday word in one of `strong` fields, or (when `twoWords`) two non-everyday words anywhere. */
function hasEvidence(
  match: Record<string, string[]>,
  phrases: number,
  strong: readonly string[],
  twoWords = true,
): boolean {
  if (phrases > 0) return true;
  const specific = Object.entries(match).filter(([term]) => !COMMON_STEMS.has(term));
  return (
    (twoWords && specific.length >= 2) ||
    specific.some(([, fields]) => fields.some((f) => strong.includes(f)))
  );
}

/** `count` empty documents (ids no principle or domain can have) that only raise the document count. */
function background<F extends string>(
  count: number,
  fields: Record<F, number>,
): ({ id: string } & Record<F, string>)[] {
  const empty = Object.fromEntries(Object.keys(fields).map((f) => [f, ""])) as Record<F, string>;
  return Array.from({ length: Math.max(0, count) }, (_, i) => ({
    id: ` background ${i}`,
    ...empty,
  }));
}
