import MiniSearch from "minisearch";
import type { ResolvedPrinciple } from "./conflict";
import { allPrinciples } from "./overlay";
import type { Constitution } from "./schema";
import { normalizeTerm, splitNotFor, stems, tokenize } from "./text";

/** A detected domain with its confidence (0..1) and why. */
export type DomainHit = { domain: string; confidence: number; score: number; matched_terms: string[]; penalized_by: string[] };

/** BM25 settings measured best for domain detection (retrieval.md: k1 = 2, b = 0). */
export const DOMAIN_BM25 = { k: 2, b: 0, d: 0.5 } as const;
/** Field weights for domain detection (retrieval.md): keyword lists x3; description, titles, deny examples x1; allow examples and principle keywords x0.5; rules not indexed. */
export const DOMAIN_FIELD_WEIGHTS = { keywords: 3, description: 1, titles: 1, deny: 1, allow: 0.5, principle_keywords: 0.5 } as const;
export const PRINCIPLE_FIELD_WEIGHTS = { title: 2, keywords: 2, deny: 1.5, allow: 1, rule: 0.5 } as const;
/** A score that maps to confidence 0.5: confidence = score / (score + half). */
export const DOMAIN_HALF_SCORE = 6;
export const PRINCIPLE_HALF_SCORE = 4;
/** Each `NOT for:` stem found in the prompt halves a domain's score, at most twice. */
export const NOT_FOR_PENALTY = 0.5;

type DomainDoc = { id: string } & Record<keyof typeof DOMAIN_FIELD_WEIGHTS, string>;
type PrincipleDoc = { id: string } & Record<keyof typeof PRINCIPLE_FIELD_WEIGHTS, string>;

const searchOptions = { processTerm: normalizeTerm, tokenize, combineWith: "OR" as const, prefix: false, fuzzy: false };

function confidence(score: number, half: number): number {
  return score <= 0 ? 0 : Math.round((score / (score + half)) * 10_000) / 10_000;
}

/**
 * A lexical index of a constitution: BM25 (MiniSearch) over each overlay's
 * description, keywords, principle titles and examples for domain detection, and
 * over principles for ranking them. Pure and synchronous; build once per version.
 */
export class LexicalIndex {
  private readonly domains: MiniSearch<DomainDoc>;
  private readonly principles: MiniSearch<PrincipleDoc>;
  private readonly notFor = new Map<string, Set<string>>();

  constructor(private readonly constitution: Constitution) {
    this.domains = new MiniSearch<DomainDoc>({ fields: Object.keys(DOMAIN_FIELD_WEIGHTS), idField: "id", tokenize, processTerm: normalizeTerm, searchOptions });
    this.principles = new MiniSearch<PrincipleDoc>({ fields: Object.keys(PRINCIPLE_FIELD_WEIGHTS), idField: "id", tokenize, processTerm: normalizeTerm, searchOptions });

    const domainDocs: DomainDoc[] = [];
    for (const overlay of Object.values(constitution.overlays)) {
      if (overlay.excluded) continue;
      const { covers, notFor } = splitNotFor(overlay.description);
      const own = stems(overlay.keywords.join(" "));
      this.notFor.set(overlay.domain, new Set([...stems(notFor)].filter((s) => !own.has(s))));
      const ps = overlay.additional_principles;
      domainDocs.push({
        id: overlay.domain,
        keywords: overlay.keywords.join(" . "),
        description: covers,
        titles: ps.map((p) => p.title).join(" . "),
        deny: ps.flatMap((p) => p.examples_deny).join(" . "),
        allow: ps.flatMap((p) => p.examples_allow).join(" . "),
        principle_keywords: ps.flatMap((p) => p.keywords).join(" . "),
      });
    }
    this.domains.addAll(domainDocs);
    this.principles.addAll(
      allPrinciples(constitution).map((p) => ({
        id: p.id,
        title: p.title,
        keywords: p.keywords.join(" . "),
        deny: p.examples_deny.join(" . "),
        allow: p.examples_allow.join(" . "),
        rule: p.rule,
      })),
    );
  }

  /**
   * Domains ranked for a prompt, with `NOT for:` scoping applied: at most `max`, none
   * below `minConfidence`, none scoring under `relativeCutoff` of the best domain's score.
   */
  detectDomains(prompt: string, options: { max: number; minConfidence: number; relativeCutoff?: number }): DomainHit[] {
    const promptStems = stems(prompt);
    const hits = this.domains.search(prompt, { boost: DOMAIN_FIELD_WEIGHTS, bm25: DOMAIN_BM25 }).map((r) => {
      const penalizedBy = [...(this.notFor.get(r.id) ?? [])].filter((s) => promptStems.has(s));
      const score = r.score * NOT_FOR_PENALTY ** Math.min(penalizedBy.length, 2);
      return { domain: String(r.id), score: Math.round(score * 10_000) / 10_000, confidence: confidence(score, DOMAIN_HALF_SCORE), matched_terms: r.terms.sort(), penalized_by: penalizedBy };
    });
    const best = Math.max(0, ...hits.map((h) => h.score));
    const floor = best * (options.relativeCutoff ?? 0);
    return hits
      .filter((h) => h.confidence >= options.minConfidence && h.score >= floor)
      .sort((a, b) => b.score - a.score || a.domain.localeCompare(b.domain))
      .slice(0, options.max);
  }

  /** Lexical relevance (0..1) of each principle to a prompt, by id; unmatched principles are absent. */
  principleScores(prompt: string): Map<string, { confidence: number; matched_terms: string[] }> {
    const out = new Map<string, { confidence: number; matched_terms: string[] }>();
    for (const r of this.principles.search(prompt, { boost: PRINCIPLE_FIELD_WEIGHTS })) {
      out.set(String(r.id), { confidence: confidence(r.score, PRINCIPLE_HALF_SCORE), matched_terms: r.terms.sort() });
    }
    return out;
  }

  /**
   * Ranks the principles in force for a prompt. A core principle counts when the
   * prompt matches it; a detected domain's principles, and the core principles its
   * overlay re-prioritises, count in proportion to the domain's confidence, raised
   * by their own match.
   */
  rankPrinciples(prompt: string, inForce: readonly ResolvedPrinciple[], domains: readonly DomainHit[]): { principle: ResolvedPrinciple; confidence: number }[] {
    const lexical = this.principleScores(prompt);
    const domainConfidence = new Map(domains.map((d) => [d.domain, d.confidence]));
    return inForce.flatMap((principle) => {
      const own = lexical.get(principle.id)?.confidence ?? 0;
      const via = principle.domain ?? principle.overridden_by;
      const fromDomain = via ? (domainConfidence.get(via) ?? 0) : 0;
      const score = fromDomain > 0 ? fromDomain * (0.6 + 0.4 * own) : own;
      return score > 0 ? [{ principle, confidence: Math.round(score * 10_000) / 10_000 }] : [];
    });
  }

  /** The domains this index knows (excluded overlays are not indexed). */
  knownDomains(): string[] {
    return Object.values(this.constitution.overlays)
      .filter((o) => !o.excluded)
      .map((o) => o.domain);
  }
}
