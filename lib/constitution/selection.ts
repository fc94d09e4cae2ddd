import { orderByPrecedence, type ResolvedPrinciple } from "./conflict";
import type { PrincipleMatch } from "./lexical";

/** Why a principle was chosen: its own matched words, and the domain that carried it, if any. */
export type Why = {
  /** "prompt": the principle's own text matched well enough; "domain": a detected domain carried a weaker own match. */
  via: "prompt" | "domain" | "llm";
  domain: string | null;
  domain_confidence: number | null;
  own: number;
  matched_terms: string[];
  matched_phrases: string[];
  /** The semantic step's confidence for this principle, when it ran. */
  semantic: number | null;
  /** The logit the learned weights added to the principle's own match, when it has a model (learn.ts). */
  learned?: number;
  /** True when a reviewer's label of this very prompt expects the principle (learn.ts readPrompt). */
  labelled?: boolean;
};

export type Candidate = { principle: ResolvedPrinciple; relevance: number; why: Why };

export type SelectionRules = {
  /** A principle is chosen when its relevance reaches this. */
  principle_min_relevance: number;
  /** Share of a detected domain's confidence that its principles get before their own match (0 = only their own match counts). */
  domain_carry: number;
  /**
   * What a detected domain brings when none of its principles was chosen on its own:
   * "off" nothing; "matched" its principle the prompt matches best, if it matches any;
   * "any" that, or else its prevailing principle.
   */
  domain_brings: "off" | "matched" | "any";
};

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

/**
 * Scores the principles in force for a prompt. A core principle's relevance is its own
 * match: it comes in only when the prompt touches it. A detected domain's principle
 * gets the better of its own match and the domain's confidence scaled by
 * `domain_carry + (1 - domain_carry) * own`, so a strong domain carries a principle
 * the prompt touches weakly, and no principle comes in on the domain alone unless
 * `domain_carry` reaches the threshold. A match that rests on none of the principle's
 * keywords (a word of its examples or rule) is not carried. Only candidates at or above
 * the threshold are returned.
 */
export function scoreCandidates(
  inForce: readonly ResolvedPrinciple[],
  own: ReadonlyMap<string, PrincipleMatch>,
  domainConfidence: ReadonlyMap<string, number>,
  rules: SelectionRules,
): Candidate[] {
  const scored = scoreEach(inForce, own, domainConfidence, rules);
  return rules.domain_brings === "off"
    ? scored
    : [...scored, ...broughtByDomains(inForce, own, domainConfidence, scored, rules)];
}

/**
 * For each detected domain none of whose principles was chosen, the principle of its
 * overlay that the prompt matches best (inForce is in precedence order, so ties go to
 * the prevailing one), carried at the domain's confidence: a detected domain is never
 * silent. With "matched" only a principle with some own match is brought.
 */
function broughtByDomains(
  inForce: readonly ResolvedPrinciple[],
  own: ReadonlyMap<string, PrincipleMatch>,
  domainConfidence: ReadonlyMap<string, number>,
  chosen: readonly Candidate[],
  rules: SelectionRules,
): Candidate[] {
  const served = new Set(chosen.map((c) => c.principle.overlay));
  const out: Candidate[] = [];
  for (const [domain, dom] of domainConfidence) {
    if (served.has(domain) || dom < rules.principle_min_relevance) continue;
    let best: ResolvedPrinciple | undefined;
    let bestOwn = -1;
    for (const p of inForce) {
      if (p.overlay !== domain) continue;
      const score = own.get(p.id)?.confidence ?? 0;
      if (score > bestOwn) [best, bestOwn] = [p, score];
    }
    if (!best || (rules.domain_brings === "matched" && bestOwn <= 0)) continue;
    const match = own.get(best.id);
    out.push({
      principle: best,
      relevance: round4(dom),
      why: {
        via: "domain",
        domain,
        domain_confidence: dom,
        own: bestOwn,
        matched_terms: match?.matched_terms ?? [],
        matched_phrases: match?.matched_phrases ?? [],
        semantic: match?.semantic ?? null,
      },
    });
  }
  return out;
}

function scoreEach(
  inForce: readonly ResolvedPrinciple[],
  own: ReadonlyMap<string, PrincipleMatch>,
  domainConfidence: ReadonlyMap<string, number>,
  rules: SelectionRules,
): Candidate[] {
  return inForce.flatMap((principle) => {
    const match = own.get(principle.id);
    const ownScore = match?.confidence ?? 0;
    const domain = principle.overlay;
    const dom = domain ? (domainConfidence.get(domain) ?? 0) : 0;
    const carried = match?.weak
      ? 0
      : dom * (rules.domain_carry + (1 - rules.domain_carry) * ownScore);
    const relevance = round4(Math.max(ownScore, carried));
    if (relevance <= 0 || relevance < rules.principle_min_relevance) return [];
    const viaDomain = carried > ownScore;
    return [
      {
        principle,
        relevance,
        why: {
          via: viaDomain ? "domain" : "prompt",
          domain: viaDomain ? domain : null,
          domain_confidence: viaDomain ? dom : null,
          own: ownScore,
          matched_terms: match?.matched_terms ?? [],
          matched_phrases: match?.matched_phrases ?? [],
          semantic: match?.semantic ?? null,
          ...(match?.learned !== undefined ? { learned: match.learned } : {}),
        },
      },
    ];
  });
}

/** The line a principle takes in the injected context (its length is what the budget counts). */
export function principleLine(
  p: Pick<ResolvedPrinciple, "id" | "level" | "priority" | "title" | "rule">,
): string {
  return `- [${p.level} ${p.priority}] ${p.id} ${p.title}: ${p.rule}`;
}

/** The text a UserPromptSubmit hook adds to the agent's context for these principles (precedence order). */
export function principlesContext(
  version: number,
  principles: readonly Pick<ResolvedPrinciple, "id" | "level" | "priority" | "title" | "rule">[],
): string {
  if (principles.length === 0) return "";
  return [
    `Charter constitution (version ${version}): principles that apply to this request, the prevailing first. Hard constraints are not negotiable.`,
    ...principles.map(principleLine),
  ].join("\n");
}

/**
 * The text a SessionStart hook adds to the agent's context: the hard constraints that hold
 * whatever the prompt, for agents that take context only at the start of a session.
 */
export function sessionContext(
  version: number,
  principles: readonly Pick<ResolvedPrinciple, "id" | "level" | "priority" | "title" | "rule">[],
): string {
  if (principles.length === 0) return "";
  return [
    `Charter constitution (version ${version}): hard constraints that hold for every request in this session. They are not negotiable.`,
    ...principles.map(principleLine),
  ].join("\n");
}

/**
 * The candidates to inject: the `topK` most relevant, then, while their lines exceed
 * `budgetChars`, the least relevant soft principle is dropped; a chosen hard principle
 * is never dropped for the budget. Returned in precedence order (docs/spec/constitution-store.md).
 */
export function choose(
  candidates: readonly Candidate[],
  options: { topK: number; budgetChars: number },
): { chosen: Candidate[]; dropped_for_budget: string[] } {
  const byRelevance = [...candidates]
    .sort((a, b) => b.relevance - a.relevance || a.principle.id.localeCompare(b.principle.id))
    .slice(0, options.topK);
  const kept = new Set(byRelevance);
  const dropped: string[] = [];
  let chars = byRelevance.reduce((n, c) => n + principleLine(c.principle).length + 1, 0);
  for (const c of [...byRelevance].reverse()) {
    if (chars <= options.budgetChars) break;
    if (c.principle.level === "hard") continue;
    kept.delete(c);
    dropped.push(c.principle.id);
    chars -= principleLine(c.principle).length + 1;
  }
  const order = orderByPrecedence([...kept].map((c) => c.principle));
  const byId = new Map([...kept].map((c) => [c.principle.id, c]));
  return { chosen: order.map((p) => byId.get(p.id)!), dropped_for_budget: dropped };
}
