import type { EvalCase } from "./eval-schema";
import { forbidMatches } from "./eval-schema";
import type { DomainHit, LexicalIndex, PrincipleMatch } from "./lexical";
import type { Constitution } from "./schema";
import { COMMON_STEMS } from "./common-words";
import { stemSequence } from "./text";

/**
 * Learned term weights: what the people who label prompts teach retrieval.
 *
 * One model per domain and per labelled principle, each an L2-regularised logistic
 * regression over the prompt's stems and adjacent stem pairs. The lexical path's own
 * confidence is the model's offset, so the overlays' keywords are the prior: a model's
 * weights start at zero, where its answer is exactly the lexical one, and the
 * regularisation pulls every weight back toward it. A constitution with no labels fits
 * no model and answers exactly as the lexical path does.
 *
 * Fitting is cyclic coordinate descent (one Newton step per weight, cases in file order,
 * features in sorted order): deterministic for a given constitution and eval set.
 */

/** One model: a bias and the weights of the features it saw, rounded so stored models compare equal. */
export type LinearModel = { bias: number; weights: Record<string, number> };

/** What a labelled prompt's case says, kept so that the same prompt is answered as it was labelled. */
export type PromptLabel = { domains: string[]; expect: string[]; forbid: string[] };

/** The fitted models of one constitution version and eval set (JSON-safe: stored with the version). */
export type LearnedModel = {
  format: typeof LEARNED_FORMAT;
  /** Cases the model was fitted on. */
  cases: number;
  domains: Record<string, LinearModel>;
  principles: Record<string, LinearModel>;
  /**
   * Every labelled prompt by its key (its stems in order, as readPrompt reads it): the same prompt again, however it is
   * cased or punctuated, gets the domains its label names, its expected principles, and
   * none it forbids. A model can only lean toward a label; this makes a reviewer's
   * correction stick for the prompt they corrected.
   */
  prompts: Record<string, PromptLabel>;
};
export const LEARNED_FORMAT = 1;

/** Fitting settings; the defaults were chosen by 5-fold cross-validation on the shipped eval set (docs/evals.md). */
export type FitOptions = {
  /**
   * Weights smaller than this (in absolute value) are left out of the model. With L2, every
   * feature of every case gets some weight in every model; those under 0.01 changed no
   * cross-validated figure of the shipped eval set and made the model four times larger
   * (7.4 MB of JSON against 1.7 MB, 345,000 weights against 82,000).
   */
  min_weight: number;
  /** L2 penalty on each weight and bias (larger keeps answers closer to the keywords alone). */
  l2: number;
  /** Coordinate-descent sweeps over every feature. */
  sweeps: number;
  /** Weight of a `forbid` label against a principle (a trap is worse than a miss). */
  forbid_weight: number;
  /** Whether each model fits a bias of its own (otherwise the lexical confidence is its only baseline). */
  bias: boolean;
  /** Weight of the negative label an overlay principle gets on a prompt where none of its overlays applies (0: no such label). */
  off_domain_weight: number;
  /** Weight of a case naming a domain against one that does not (labels that say "this applies" are rarer and say more). */
  domain_positive_weight: number;
  /** How many times the L2 penalty an everyday word (or a pair of them) gets: a few labels must not teach "get" or "thanks". */
  everyday_l2_factor: number;
  /** Weight of a case expecting a principle against a negative label for it. */
  principle_positive_weight: number;
};
export const FIT_DEFAULTS: FitOptions = {
  min_weight: 0.01,
  l2: 2,
  sweeps: 12,
  forbid_weight: 4,
  bias: false,
  off_domain_weight: 0.2,
  domain_positive_weight: 8,
  everyday_l2_factor: 2,
  principle_positive_weight: 1,
};

/**
 * Lexical confidences are clamped into this range before they become a model's offset:
 * an unmatched domain (confidence 0) starts at logit(0.02), about -3.9, so it takes
 * strong learned evidence to bring it in.
 */
export const OFFSET_CLAMP = 0.02;

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
export function logit(p: number): number {
  const c = Math.min(1 - OFFSET_CLAMP, Math.max(OFFSET_CLAMP, p));
  return Math.log(c / (1 - c));
}

/** Whether a feature is made of everyday words only (common-words.ts): a stem, or a pair of them. */
function isEveryday(feature: string): boolean {
  return feature.split(" ").every((stem) => COMMON_STEMS.has(stem));
}

/** The features of a stem sequence: its distinct stems, and its adjacent stem pairs as "a b". */
function featuresOf(sequence: readonly string[]): string[] {
  const out = new Set(sequence);
  for (let i = 1; i < sequence.length; i++) out.add(`${sequence[i - 1]} ${sequence[i]}`);
  return [...out];
}

/** A prompt's features: its distinct stems, and its adjacent stem pairs as "a b". */
export function promptFeatures(prompt: string): string[] {
  return featuresOf(stemSequence(prompt));
}

/** A prompt as the labels are kept by: its stems in order (case, punctuation and stopwords aside). */
function labelKey(sequence: readonly string[]): string {
  return sequence.join(" ");
}

/** What a model says of one prompt, read once per retrieval: its features, and its own label if it was labelled. */
export type LearnedReading = {
  model: LearnedModel;
  features: string[];
  label: PromptLabel | undefined;
};

export function readPrompt(model: LearnedModel, prompt: string): LearnedReading {
  const sequence = stemSequence(prompt);
  const key = labelKey(sequence);
  return {
    model,
    features: featuresOf(sequence),
    label: key && Object.hasOwn(model.prompts, key) ? model.prompts[key] : undefined,
  };
}

/** A model's learned logit for a prompt's features (bias included). */
function learnedLogit(model: LinearModel, features: readonly string[]): number {
  let z = model.bias;
  for (const f of features) z += model.weights[f] ?? 0;
  return z;
}

/** A lexical confidence moved by a model: σ(logit(confidence) + learned). */
export function adjust(confidence: number, learned: number): number {
  return Math.round(sigmoid(logit(confidence) + learned) * 10_000) / 10_000;
}

type Example = { features: number[]; offset: number; label: 0 | 1; weight: number };

/**
 * Fits one model by cyclic coordinate descent on the penalised log loss. `examples`
 * hold feature numbers into `names`; the bias, when fitted, takes its step before each sweep.
 */
function fitOne(
  examples: readonly Example[],
  names: readonly string[],
  o: FitOptions,
): LinearModel {
  const n = examples.length;
  const margin = examples.map((e) => e.offset);
  // Which examples hold each feature (examples hold each feature once).
  const holders = new Map<number, number[]>();
  examples.forEach((e, i) => {
    for (const f of e.features) {
      const list = holders.get(f);
      if (list) list.push(i);
      else holders.set(f, [i]);
    }
  });
  const order = [...holders.keys()].sort((a, b) => a - b);
  const penalty = names.map((name) => o.l2 * (isEveryday(name) ? o.everyday_l2_factor : 1));
  const weights = new Float64Array(names.length);
  let bias = 0;
  const all = Array.from({ length: n }, (_, i) => i);
  const step = (who: readonly number[], current: number, l2 = o.l2): number => {
    let g = l2 * current;
    let h = l2;
    for (const i of who) {
      const e = examples[i]!;
      const p = sigmoid(margin[i]!);
      g += e.weight * (p - e.label);
      h += e.weight * p * (1 - p);
    }
    const delta = -g / h;
    for (const i of who) margin[i]! += delta;
    return current + delta;
  };
  for (let sweep = 0; sweep < o.sweeps; sweep++) {
    if (o.bias) bias = step(all, bias);
    for (const f of order) weights[f] = step(holders.get(f)!, weights[f]!, penalty[f]);
  }
  const out: Record<string, number> = {};
  for (const f of order) {
    const w = round6(weights[f]!);
    if (Math.abs(w) >= o.min_weight) out[names[f]!] = w;
  }
  return { bias: round6(bias), weights: out };
}

/** What the lexical path gives each case, computed once and shared by every fold of a cross-validation. */
export type LexicalEvidence = {
  features: string[];
  domains: Map<string, number>;
  principles: Map<string, number>;
};

export function lexicalEvidence(index: LexicalIndex, prompt: string): LexicalEvidence {
  const hits = index.detectDomains(prompt, { max: Number.MAX_SAFE_INTEGER, minConfidence: 0 });
  return {
    features: promptFeatures(prompt),
    domains: new Map(hits.map((h) => [h.domain, h.confidence])),
    principles: new Map([...index.principleScores(prompt)].map(([id, m]) => [id, m.confidence])),
  };
}

/** Each principle id with the overlays that define it (none for a core principle): who a case's labels speak about. */
export function principleOwners(constitution: Constitution): Map<string, Set<string>> {
  const overlayOf = new Map<string, Set<string>>();
  for (const p of constitution.core) overlayOf.set(p.id, new Set());
  for (const overlay of Object.values(constitution.overlays)) {
    if (overlay.excluded) continue;
    for (const p of overlay.additional_principles) {
      const set = overlayOf.get(p.id) ?? new Set<string>();
      set.add(overlay.domain);
      overlayOf.set(p.id, set);
    }
  }
  return overlayOf;
}

/**
 * A principle's label in one case: 1 when the case expects it; 0 when it forbids it, or
 * when it is an overlay principle on a prompt where none of its overlays applies; absent
 * (null) otherwise: a case that expects one principle says nothing about the others.
 */
function principleLabel(
  c: EvalCase,
  id: string,
  overlays: ReadonlySet<string>,
  o: FitOptions,
): { label: 0 | 1; weight: number } | null {
  if (c.forbid.some((entry) => forbidMatches(entry, id)))
    return { label: 0, weight: o.forbid_weight };
  if (c.expect.includes(id)) return { label: 1, weight: o.principle_positive_weight };
  if (o.off_domain_weight > 0 && overlays.size > 0 && !c.domains.some((d) => overlays.has(d)))
    return { label: 0, weight: o.off_domain_weight };
  return null;
}

/**
 * Fits the models for a constitution from labelled cases. A domain gets a model when
 * some case names it; a principle when some case expects or forbids it. `evidence`
 * (one per case, from `lexicalEvidence`) may be passed to skip the lexical pass.
 */
export function fitLearned(
  constitution: Constitution,
  index: LexicalIndex,
  cases: readonly EvalCase[],
  options: Partial<FitOptions> = {},
  evidence?: readonly LexicalEvidence[],
): LearnedModel {
  const steps = fitSteps(constitution, index, cases, options, evidence);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * fitLearned in slices: `pause` is awaited after each model is fitted, so a server can
 * give its event loop back between them (one model takes milliseconds; a whole fit, seconds).
 */
export async function fitLearnedAsync(
  constitution: Constitution,
  index: LexicalIndex,
  cases: readonly EvalCase[],
  pause: () => Promise<void>,
  options: Partial<FitOptions> = {},
  evidence?: readonly LexicalEvidence[],
): Promise<LearnedModel> {
  const steps = fitSteps(constitution, index, cases, options, evidence);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    await pause();
  }
}

/** The fit as a sequence of steps, one per model. */
function* fitSteps(
  constitution: Constitution,
  index: LexicalIndex,
  cases: readonly EvalCase[],
  options: Partial<FitOptions>,
  given: readonly LexicalEvidence[] | undefined,
): Generator<void, LearnedModel> {
  const o = { ...FIT_DEFAULTS, ...options };
  const evidence = given ?? cases.map((c) => lexicalEvidence(index, c.prompt));
  const names: string[] = [];
  const numbers = new Map<string, number>();
  const number = (f: string) => {
    let i = numbers.get(f);
    if (i === undefined) numbers.set(f, (i = names.push(f) - 1));
    return i;
  };
  const featureNumbers = evidence.map((e) => e.features.map(number));
  const domains: Record<string, LinearModel> = {};
  const known = index.knownDomains().sort();
  for (const domain of known) {
    if (!cases.some((c) => c.domains.includes(domain))) continue;
    const examples = cases.map((c, i): Example => ({
      features: featureNumbers[i]!,
      offset: logit(evidence[i]!.domains.get(domain) ?? 0),
      label: c.domains.includes(domain) ? 1 : 0,
      weight: c.domains.includes(domain) ? o.domain_positive_weight : 1,
    }));
    domains[domain] = fitOne(examples, names, o);
    yield;
  }
  const principles: Record<string, LinearModel> = {};
  const owners = principleOwners(constitution);
  const labelled = new Set(
    cases.flatMap((c) => [
      ...c.expect,
      ...[...owners.keys()].filter((id) => c.forbid.some((entry) => forbidMatches(entry, id))),
    ]),
  );
  for (const id of [...labelled].filter((id) => owners.has(id)).sort()) {
    const examples: Example[] = [];
    cases.forEach((c, i) => {
      const label = principleLabel(c, id, owners.get(id)!, o);
      if (label)
        examples.push({
          features: featureNumbers[i]!,
          offset: logit(evidence[i]!.principles.get(id) ?? 0),
          ...label,
        });
    });
    principles[id] = fitOne(examples, names, o);
    yield;
  }
  const prompts: Record<string, PromptLabel> = {};
  for (const c of cases) {
    const key = labelKey(stemSequence(c.prompt));
    if (key)
      prompts[key] = { domains: [...c.domains], expect: [...c.expect], forbid: [...c.forbid] };
  }
  return { format: LEARNED_FORMAT, cases: cases.length, domains, principles, prompts };
}

/** Whether a model changes anything: one with no model and no labelled prompt answers as the lexical path. */
export function isEmptyModel(model: LearnedModel | undefined): boolean {
  return (
    !model ||
    (Object.keys(model.domains).length === 0 &&
      Object.keys(model.principles).length === 0 &&
      Object.keys(model.prompts).length === 0)
  );
}

/**
 * Domain hits moved by the learned models, best first. A domain with no model keeps its
 * lexical confidence; a domain the lexical path did not match at all comes in only when
 * its model lifts it above zero, with no matched words of its own.
 */
export function applyToDomains(
  hits: readonly DomainHit[],
  model: LearnedModel,
  features: readonly string[],
): DomainHit[] {
  const byDomain = new Map(hits.map((h) => [h.domain, h]));
  const out: DomainHit[] = hits.filter((h) => !model.domains[h.domain]);
  for (const [domain, m] of Object.entries(model.domains)) {
    const hit = byDomain.get(domain);
    const learned = learnedLogit(m, features);
    const confidence = adjust(hit?.confidence ?? 0, learned);
    if (!hit && confidence < OFFSET_CLAMP * 2) continue;
    out.push({
      domain,
      score: hit?.score ?? 0,
      matched_terms: hit?.matched_terms ?? [],
      matched_phrases: hit?.matched_phrases ?? [],
      penalized_by: hit?.penalized_by ?? [],
      ...(hit?.semantic !== undefined ? { semantic: hit.semantic } : {}),
      confidence,
      learned: round6(learned),
    });
  }
  return out.sort((a, b) => b.confidence - a.confidence || a.domain.localeCompare(b.domain));
}

/**
 * Principle matches moved by the learned models. A match the model supports (a positive
 * learned logit) is no longer weak: the labels are its evidence.
 */
export function applyToPrinciples(
  own: ReadonlyMap<string, PrincipleMatch>,
  model: LearnedModel,
  features: readonly string[],
): Map<string, PrincipleMatch> {
  const out = new Map(own);
  for (const [id, m] of Object.entries(model.principles)) {
    const match = own.get(id);
    const learned = learnedLogit(m, features);
    const confidence = adjust(match?.confidence ?? 0, learned);
    if (!match && confidence < OFFSET_CLAMP * 2) continue;
    const weak = (match?.weak ?? !match) && learned <= 0;
    out.set(id, {
      confidence,
      matched_terms: match?.matched_terms ?? [],
      matched_phrases: match?.matched_phrases ?? [],
      ...(weak ? { weak } : {}),
      ...(match?.semantic !== undefined ? { semantic: match.semantic } : {}),
      learned: round6(learned),
    });
  }
  return out;
}
