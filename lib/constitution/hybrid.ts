import type { DomainHit, PrincipleMatch } from "./lexical";

/**
 * The semantic step (optional): cosine similarities of a prompt's embedding to each
 * domain's and principle's text, mapped to 0..1 by a calibration and combined with
 * the lexical confidences. Either signal alone can carry a match; together they add
 * up like independent evidence: 1 - (1 - lexical) * (1 - weight * semantic).
 */

/** Cosine similarities of one prompt to each domain and principle, by name and id. */
export type SemanticSimilarities = {
  domains: ReadonlyMap<string, number>;
  principles: ReadonlyMap<string, number>;
};

/** Similarity at or below `floor` counts 0, at or above `ceiling` counts 1, linear between; `weight` scales it. */
export type SemanticCalibration = { floor: number; ceiling: number; weight: number };

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

/** A similarity as a 0..1 confidence under the calibration. */
export function semanticConfidence(similarity: number, cal: SemanticCalibration): number {
  if (cal.ceiling <= cal.floor) return similarity >= cal.ceiling ? 1 : 0;
  return round4(Math.min(1, Math.max(0, (similarity - cal.floor) / (cal.ceiling - cal.floor))));
}

/** Lexical and semantic confidence combined as independent evidence. */
export function combine(lexical: number, semantic: number, weight: number): number {
  return round4(1 - (1 - lexical) * (1 - weight * semantic));
}

/** Domain hits with the semantic signal folded in; domains found only semantically are added with no matched terms. */
export function fuseDomains(
  hits: readonly DomainHit[],
  sims: SemanticSimilarities,
  cal: SemanticCalibration,
): DomainHit[] {
  const byDomain = new Map(hits.map((h) => [h.domain, h]));
  const out: DomainHit[] = [];
  for (const domain of new Set([...byDomain.keys(), ...sims.domains.keys()])) {
    const hit = byDomain.get(domain) ?? {
      domain,
      confidence: 0,
      score: 0,
      matched_terms: [],
      matched_phrases: [],
      penalized_by: [],
    };
    const semantic = semanticConfidence(sims.domains.get(domain) ?? 0, cal);
    const confidence = combine(hit.confidence, semantic, cal.weight);
    if (confidence > 0) out.push({ ...hit, confidence, semantic });
  }
  return out.sort((a, b) => b.confidence - a.confidence || a.domain.localeCompare(b.domain));
}

/** Principle matches with the semantic signal folded in. */
export function fusePrinciples(
  matches: ReadonlyMap<string, PrincipleMatch>,
  sims: SemanticSimilarities,
  cal: SemanticCalibration,
): Map<string, PrincipleMatch> {
  const out = new Map<string, PrincipleMatch>();
  for (const id of new Set([...matches.keys(), ...sims.principles.keys()])) {
    const match = matches.get(id) ?? { confidence: 0, matched_terms: [], matched_phrases: [] };
    const semantic = semanticConfidence(sims.principles.get(id) ?? 0, cal);
    const confidence = combine(match.confidence, semantic, cal.weight);
    if (confidence > 0) out.set(id, { ...match, confidence, semantic });
  }
  return out;
}
