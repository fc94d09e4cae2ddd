import type { ResolvedPrinciple } from "./conflict";
import type { ConstitutionStoreConfig } from "./config";
import {
  fuseDomains,
  fusePrinciples,
  type SemanticCalibration,
  type SemanticSimilarities,
} from "./hybrid";
import { forbidMatches } from "./eval-schema";
import { applyToDomains, applyToPrinciples, type LearnedReading, type PromptLabel } from "./learn";
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
 * floor and the cutoff relative to the best one; with `sims`, the semantic step's evidence
 * is folded in, and with `learned` (the prompt read by the learned model), the labels'.
 */
export function rankDomains(
  index: LexicalIndex,
  config: ConstitutionStoreConfig,
  prompt: string,
  sims?: SemanticSimilarities,
  learned?: LearnedReading,
): { candidates: DomainHit[]; lexicalDomains: DomainHit[] } {
  const lexical = index.detectDomains(prompt, {
    max: sims || learned ? Number.MAX_SAFE_INTEGER : config.prefilter_candidates,
    minConfidence: 0,
  });
  const fused = sims ? fuseDomains(lexical, sims, calibrationOf(config)) : lexical;
  if (learned?.label) return labelledDomains(index, config, learned.label, fused);
  const candidates = (
    learned ? applyToDomains(fused, learned.model, learned.features) : fused
  ).slice(0, config.prefilter_candidates);
  const floor = (candidates[0]?.confidence ?? 0) * config.lexical_relative_cutoff;
  const lexicalDomains = candidates
    .filter((d) => d.confidence >= config.lexical_min_confidence && d.confidence >= floor)
    .slice(0, config.max_prefilter_domains);
  return { candidates, lexicalDomains };
}

/** A labelled prompt's domains: those its label names (confidence 1), the rest ranked after them for the LLM prefilter. */
function labelledDomains(
  index: LexicalIndex,
  config: ConstitutionStoreConfig,
  label: PromptLabel,
  ranked: readonly DomainHit[],
): { candidates: DomainHit[]; lexicalDomains: DomainHit[] } {
  const known = new Set(index.knownDomains());
  const lexicalDomains = label.domains
    .filter((domain) => known.has(domain))
    .map((domain): DomainHit => ({
      domain,
      score: 0,
      confidence: 1,
      matched_terms: [],
      matched_phrases: [],
      penalized_by: [],
      labelled: true,
    }));
  const named = new Set(label.domains);
  return {
    candidates: [...lexicalDomains, ...ranked.filter((d) => !named.has(d.domain))].slice(
      0,
      config.prefilter_candidates,
    ),
    lexicalDomains,
  };
}

/** A labelled prompt's candidates: none it forbids, and each principle it expects that is in force (relevance 1). */
function withLabel(
  candidates: Candidate[],
  inForce: readonly ResolvedPrinciple[],
  label: PromptLabel,
): Candidate[] {
  const kept = candidates.filter(
    (c) => !label.forbid.some((entry) => forbidMatches(entry, c.principle.id)),
  );
  for (const id of label.expect) {
    const principle = inForce.find((p) => p.id === id);
    if (!principle || label.forbid.some((entry) => forbidMatches(entry, id))) continue;
    const why = {
      via: "prompt" as const,
      domain: null,
      domain_confidence: null,
      own: 1,
      matched_terms: [],
      matched_phrases: [],
      semantic: null,
      labelled: true,
    };
    const at = kept.findIndex((c) => c.principle.id === id);
    if (at >= 0)
      kept[at] = { ...kept[at]!, relevance: 1, why: { ...kept[at]!.why, labelled: true } };
    else kept.push({ principle, relevance: 1, why });
  }
  return kept;
}

/** The principles in force scored against the prompt (with the semantic step's evidence when given). */
export function pickLexically(
  index: LexicalIndex,
  config: ConstitutionStoreConfig,
  prompt: string,
  inForce: readonly ResolvedPrinciple[],
  domains: DetectedDomain[],
  sims?: SemanticSimilarities,
  learned?: LearnedReading,
): Candidate[] {
  const rules = {
    principle_min_relevance: config.principle_min_relevance,
    domain_carry: config.domain_carry,
    domain_brings: config.domain_brings,
  };
  const lexical = index.principleScores(prompt);
  const fused = sims ? fusePrinciples(lexical, sims, calibrationOf(config)) : lexical;
  const own = learned ? applyToPrinciples(fused, learned.model, learned.features) : fused;
  const candidates = scoreCandidates(
    inForce,
    own,
    new Map(domains.map((d) => [d.domain, d.confidence])),
    rules,
  );
  return learned?.label ? withLabel(candidates, inForce, learned.label) : candidates;
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
