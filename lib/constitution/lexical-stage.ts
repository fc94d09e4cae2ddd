import type { ResolvedPrinciple } from "./conflict";
import type { ConstitutionStoreConfig } from "./config";
import {
  fuseDomains,
  fusePrinciples,
  type SemanticCalibration,
  type SemanticSimilarities,
} from "./hybrid";
import { applyToDomains, applyToPrinciples, promptFeatures, type LearnedModel } from "./learn";
import type { DomainHit, LexicalIndex } from "./lexical";
import type { DetectedDomain, RetrievedPrinciple } from "./retrieval-types";
import { choose, principleLine, scoreCandidates, type Candidate } from "./selection";

// The lexical stage of retrieval and the final selection, as the store runs them: the
// lexical path always runs (the prefilter's first stage and the LLM path's fallback).

function calibrationOf(config: ConstitutionStoreConfig): SemanticCalibration {
  return {
    floor: config.semantic_floor,
    ceiling: config.semantic_ceiling,
    weight: config.semantic_weight,
  };
}

/**
 * All ranked domains (the LLM prefilter's candidates) and those that pass the absolute
 * floor and the cutoff relative to the best one; with `sims`, the semantic step's evidence is folded in.
 */
export function rankDomains(
  index: LexicalIndex,
  config: ConstitutionStoreConfig,
  prompt: string,
  sims?: SemanticSimilarities,
  learned?: LearnedModel,
): { candidates: DomainHit[]; lexicalDomains: DomainHit[] } {
  const lexical = index.detectDomains(prompt, {
    max: sims || learned ? Number.MAX_SAFE_INTEGER : config.prefilter_candidates,
    minConfidence: 0,
  });
  const fused = sims ? fuseDomains(lexical, sims, calibrationOf(config)) : lexical;
  const candidates = (
    learned ? applyToDomains(fused, learned, promptFeatures(prompt)) : fused
  ).slice(0, config.prefilter_candidates);
  const floor = (candidates[0]?.confidence ?? 0) * config.lexical_relative_cutoff;
  const lexicalDomains = candidates
    .filter((d) => d.confidence >= config.lexical_min_confidence && d.confidence >= floor)
    .slice(0, config.max_prefilter_domains);
  return { candidates, lexicalDomains };
}

/** The principles in force scored against the prompt (with the semantic step's evidence when given). */
export function pickLexically(
  index: LexicalIndex,
  config: ConstitutionStoreConfig,
  prompt: string,
  inForce: readonly ResolvedPrinciple[],
  domains: DetectedDomain[],
  sims?: SemanticSimilarities,
  learned?: LearnedModel,
): Candidate[] {
  const rules = {
    principle_min_relevance: config.principle_min_relevance,
    domain_carry: config.domain_carry,
    domain_brings: config.domain_brings,
  };
  const lexical = index.principleScores(prompt);
  const fused = sims ? fusePrinciples(lexical, sims, calibrationOf(config)) : lexical;
  const own = learned ? applyToPrinciples(fused, learned, promptFeatures(prompt)) : fused;
  return scoreCandidates(
    inForce,
    own,
    new Map(domains.map((d) => [d.domain, d.confidence])),
    rules,
  );
}

/** The chosen candidates (top k, then the context budget) as retrieved principles, in precedence order. */
export function toRetrieved(
  config: ConstitutionStoreConfig,
  picked: Candidate[],
  topK = config.top_k,
): { principles: RetrievedPrinciple[]; dropped: string[] } {
  const { chosen, dropped_for_budget } = choose(picked, {
    topK,
    budgetChars: config.context_budget_chars,
  });
  const principles = chosen.map(({ principle: p, relevance, why }) => ({
    id: p.id,
    title: p.title,
    rule: p.rule,
    level: p.level,
    priority: p.priority,
    domain: p.domain,
    overlay: p.overlay,
    confidence: relevance,
    source: why.via === "llm" ? ("llm" as const) : ("lexical" as const),
    why,
    chars: principleLine(p).length,
  }));
  return { principles, dropped: dropped_for_budget };
}
