import { issueLines } from "@/lib/errors";
import { readTurnResult } from "./read";
import {
  DEFAULT_WEIGHTS,
  PRINCIPLES,
  scoreDictSchema,
  type Principle,
  type ScoreDict,
  type TurnResultInput,
  type Weights,
} from "./schema";

/** Scores and totals are rounded to this many decimals at the boundary, so 0.5 + 2/20 x 0.5 is exactly 0.55. */
export const DECIMALS = 4;
export const round = (n: number): number => Math.round(n * 10 ** DECIMALS) / 10 ** DECIMALS;

/** The turn-score spec's rule constants. */
export const ETHICAL_SCORES = { noMutations: 1.0, acknowledged: 0.9, unacknowledged: 0.5 } as const;
export const COMPOSABLE_RULE = { freeTools: 5, penaltyPerTool: 0.1, floor: 0.5 } as const;
export const JOY_RULE = { goodLength: 20, empty: 0.3, base: 0.5 } as const;
/** Charter's GENERATIVE rule: full marks below 90% context use, falling linearly to 0.5 at 100%. */
export const GENERATIVE_RULE = { threshold: 0.9, atFull: 0.5 } as const;

/** ETHICAL (docs/spec/turn-score.md): 1.0 without mutations; 0.9 when mutations are acknowledged (tools passed); 0.5 when not. */
export function ethicalScore(hasMutations: boolean, toolsPassed: boolean): number {
  if (!hasMutations) return ETHICAL_SCORES.noMutations;
  return toolsPassed ? ETHICAL_SCORES.acknowledged : ETHICAL_SCORES.unacknowledged;
}

/** COMPOSABLE (docs/spec/turn-score.md): 1.0 for 0-5 tools, then 1.0 - (n-5) x 0.1, bottoming at 0.5. */
export function composableScore(toolCount: number): number {
  if (toolCount <= COMPOSABLE_RULE.freeTools) return 1;
  return round(
    Math.max(
      COMPOSABLE_RULE.floor,
      1 - (toolCount - COMPOSABLE_RULE.freeTools) * COMPOSABLE_RULE.penaltyPerTool,
    ),
  );
}

/** JOY_INDUCING (docs/spec/turn-score.md): 1.0 at 20+ characters, 0.5 + (len/20) x 0.5 for 1-19, 0.3 when empty. */
export function joyScore(response: string): number {
  const length = [...response].length;
  if (length >= JOY_RULE.goodLength) return 1;
  if (length === 0) return JOY_RULE.empty;
  return round(JOY_RULE.base + (length / JOY_RULE.goodLength) * JOY_RULE.base);
}

/** GENERATIVE (Charter's rule, which the turn-score spec left for later): 1.0 below 0.9 utilization or when unknown; linear to 0.5 at 1.0. */
export function generativeScore(contextUtilization: number | null | undefined): number {
  if (
    contextUtilization === undefined ||
    contextUtilization === null ||
    contextUtilization < GENERATIVE_RULE.threshold
  )
    return 1;
  const over = (contextUtilization - GENERATIVE_RULE.threshold) / (1 - GENERATIVE_RULE.threshold);
  return round(1 - over * (1 - GENERATIVE_RULE.atFull));
}

/** Thrown for a score dict that is not an object or holds a value that is not a number in 0..1. */
export class ScoreDictError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid principle scores: ${problems.join("; ")}`);
    this.name = "ScoreDictError";
  }
}

/** The seven principle scores of one turn (the turn-score spec's PrincipleScore). */
export class PrincipleScore {
  readonly scores: Readonly<ScoreDict>;

  constructor(scores: Partial<ScoreDict> = {}) {
    this.scores = Object.fromEntries(
      PRINCIPLES.map((p) => [p, round(scores[p] ?? 1)]),
    ) as ScoreDict;
  }

  get tasteful() {
    return this.scores.tasteful;
  }
  get curated() {
    return this.scores.curated;
  }
  get ethical() {
    return this.scores.ethical;
  }
  get joy_inducing() {
    return this.scores.joy_inducing;
  }
  get composable() {
    return this.scores.composable;
  }
  get heterarchical() {
    return this.scores.heterarchical;
  }
  get generative() {
    return this.scores.generative;
  }

  /** Sum of score x weight; a principle missing from `weights` weighs 1.0 (docs/spec/turn-score.md: default weights give 8.7 for a perfect turn). */
  weightedTotal(weights: Weights = DEFAULT_WEIGHTS): number {
    return round(PRINCIPLES.reduce((sum, p) => sum + this.scores[p] * (weights[p] ?? 1), 0));
  }

  /** The weights' sum: the most `weightedTotal` can be under them. */
  static maxTotal(weights: Weights = DEFAULT_WEIGHTS): number {
    return round(PRINCIPLES.reduce((sum, p) => sum + (weights[p] ?? 1), 0));
  }

  /** Weighted total / sum of the weights used (0..1), so totals under different weight sets compare. */
  normalizedTotal(weights: Weights = DEFAULT_WEIGHTS): number {
    const max = PrincipleScore.maxTotal(weights);
    return max === 0 ? 0 : round(this.weightedTotal(weights) / max);
  }

  /** The lowest-scoring principle and its score. */
  weakest(): { principle: Principle; score: number } {
    return PRINCIPLES.map((p) => ({ principle: p, score: this.scores[p] })).reduce((a, b) =>
      b.score < a.score ? b : a,
    );
  }

  /** `{tasteful, curated, ethical, ...}` with snake_case keys, in seed order. */
  toDict(): ScoreDict {
    return { ...this.scores };
  }

  /** From a dict (kgents' from_dict): missing keys are 1.0, unknown keys are ignored; a value that is not a number in 0..1 throws ScoreDictError naming it. */
  static fromDict(data: unknown): PrincipleScore {
    return readScoreDict(data).score;
  }

  /** The same scores with some replaced (reviewer overrides). */
  withOverrides(overrides: Partial<ScoreDict>): PrincipleScore {
    return new PrincipleScore({ ...this.scores, ...overrides });
  }
}

/**
 * Reads a score dict as kgents' from_dict does (missing keys 1.0, unknown keys
 * ignored) and names the keys it ignored, so that a misspelt principle can be shown.
 */
export function readScoreDict(data: unknown): { score: PrincipleScore; ignored_keys: string[] } {
  const parsed = scoreDictSchema.safeParse(data);
  if (!parsed.success) throw new ScoreDictError(issueLines(parsed.error.issues, "(scores)"));
  const known: readonly string[] = PRINCIPLES;
  return {
    score: new PrincipleScore(parsed.data as Partial<ScoreDict>),
    ignored_keys: Object.keys(data as object).filter((k) => !known.includes(k)),
  };
}

/**
 * A turn's score with the reasoning that explains it (the turn-score spec's ChatMark reasoning),
 * the turn's fields the score did not read, and warnings about what looked wrong.
 */
export type RewardResult = {
  score: PrincipleScore;
  reasoning: string;
  reasons: Partial<Record<Principle, string>>;
  ignored_fields: string[];
  warnings: string[];
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * Scores a turn against the seven principles with the turn-score spec's rules exactly, plus
 * Charter's GENERATIVE rule. The turn is read by `readTurnResult`: no turn (missing
 * or null) scores every principle 1.0, has_mutations included, as kgents'
 * `_apply_chat_rules` returns early. `overrides` (0..1) replace a principle's score,
 * e.g. for TASTEFUL, CURATED, HETERARCHICAL, which default to 1.0.
 */
export function constitutionalReward(
  action: string,
  turnResult?: TurnResultInput | null,
  hasMutations = false,
  overrides: Partial<ScoreDict> = {},
): RewardResult {
  const { turn, ignored_fields, warnings } = readTurnResult(turnResult);
  const reasons: Partial<Record<Principle, string>> = {};
  const scores: Partial<ScoreDict> = {};
  if (turn) {
    scores.ethical = ethicalScore(hasMutations, turn.tools_passed);
    if (scores.ethical < 1) {
      reasons.ethical = turn.tools_passed
        ? `ethical ${scores.ethical}: files were changed; acknowledged (tools passed)`
        : `ethical ${scores.ethical}: files were changed but the failed tools were not acknowledged`;
    }
    const tools = turn.tools.length;
    scores.composable = composableScore(tools);
    if (scores.composable < 1)
      reasons.composable = `composable ${scores.composable}: ${plural(tools, "tool")} used, ${tools - COMPOSABLE_RULE.freeTools} over the ${COMPOSABLE_RULE.freeTools} that compose cleanly`;
    const length = [...turn.response].length;
    scores.joy_inducing = joyScore(turn.response);
    if (scores.joy_inducing < 1)
      reasons.joy_inducing =
        length === 0
          ? `joy_inducing ${scores.joy_inducing}: the response is empty`
          : `joy_inducing ${scores.joy_inducing}: the response is ${plural(length, "character")}, under ${JOY_RULE.goodLength}`;
    scores.generative = generativeScore(turn.context_utilization);
    if (scores.generative < 1)
      reasons.generative = `generative ${scores.generative}: context ${Math.round((turn.context_utilization ?? 0) * 100)}% used, at or over ${GENERATIVE_RULE.threshold * 100}%`;
  } else if (hasMutations) {
    warnings.push(
      "has_mutations is true but there is no turn_result: ethical stays 1.0, as kgents scores a turn without a result",
    );
  }
  for (const [p, v] of Object.entries(overrides) as [Principle, number][])
    reasons[p] = `${p} ${round(v)}: set by override`;

  const score = new PrincipleScore({ ...scores, ...overrides });
  const lowered = PRINCIPLES.flatMap((p) => (reasons[p] ? [reasons[p]] : []));
  const reasoning = lowered.length
    ? `${action}: ${lowered.join("; ")}.`
    : turn
      ? `${action}: every principle scored 1.0.`
      : `${action}: no turn result, so every principle scored 1.0.`;
  return { score, reasoning, reasons, ignored_fields, warnings };
}

/** The scores a turn is totalled on: the engine's, with reviewer overrides replacing single principles. */
export function effectiveScore(
  engine: Partial<ScoreDict>,
  overrides: Partial<ScoreDict> = {},
): PrincipleScore {
  return new PrincipleScore({ ...engine, ...overrides });
}
