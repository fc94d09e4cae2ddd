import type {
  EnrichedOutcome,
  OutcomeSignals,
  OutcomeStatus,
  PrincipleCredit,
  SessionState,
} from "./schema";

/** The credit-assignment spec counts errors with this pattern, which differs from the tool-success rule: both are kept as specified. */
export const ERROR_COUNT_PATTERN = /error|failed/i;
/** The credit-assignment spec's edit tools for outcome signals. */
export const EDIT_TOOLS = ["Edit", "Write", "NotebookEdit"] as const;
/** The credit-assignment spec's outcome weights and thresholds. */
export const OUTCOME_WEIGHTS = {
  tool_success: 0.25,
  user_sentiment: 0.35,
  made_edits: 0.2,
  no_errors: 0.2,
} as const;
export const OUTCOME_THRESHOLDS = { success: 0.65, failure: 0.35 } as const;
export const EDIT_VALUES = { made: 0.8, none: 0.3 } as const;
export const ERROR_PENALTY = 0.2;
/** The credit-assignment spec's credit blends: outcome with a principle's tool success, then with user sentiment. */
export const CREDIT_BLEND = { outcome: 0.6, tools: 0.4, credit: 0.7, sentiment: 0.3 } as const;

const text = (value: unknown) =>
  typeof value === "string" ? value : (JSON.stringify(value) ?? "");
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The credit-assignment spec's computeOutcomeSignals. */
export function computeOutcomeSignals(state: SessionState): OutcomeSignals {
  const calls = state.toolCalls;
  const edits = calls.filter((c) => (EDIT_TOOLS as readonly string[]).includes(c.tool));
  const files = new Set<string>();
  for (const c of edits) {
    // `||` as in the seed: an empty file_path falls back to path.
    const file = c.input.file_path || c.input.path;
    if (typeof file === "string") files.add(file);
  }
  return {
    tool_success_rate:
      calls.length > 0 ? calls.filter((c) => c.succeeded !== false).length / calls.length : 1,
    error_count: calls.filter((c) => ERROR_COUNT_PATTERN.test(text(c.output))).length,
    made_edits: edits.length > 0,
    edit_count: edits.length,
    files_touched: files.size,
    user_feedback: state.userFeedback,
    avg_sentiment:
      state.userFeedback.length > 0 ? mean(state.userFeedback.map((f) => f.sentiment)) : 0.5,
    session_continued: calls.length > 0,
    prompt_count: state.prompts.length,
  };
}

/** Each weighted part of the outcome score, for showing how it was formed. */
export function outcomeParts(signals: OutcomeSignals) {
  return {
    tool_success: OUTCOME_WEIGHTS.tool_success * signals.tool_success_rate,
    user_sentiment: OUTCOME_WEIGHTS.user_sentiment * signals.avg_sentiment,
    made_edits:
      OUTCOME_WEIGHTS.made_edits * (signals.made_edits ? EDIT_VALUES.made : EDIT_VALUES.none),
    no_errors:
      OUTCOME_WEIGHTS.no_errors *
      (signals.error_count === 0 ? 1 : Math.max(0, 1 - signals.error_count * ERROR_PENALTY)),
  };
}

/** The credit-assignment spec's inferEnrichedOutcome: the weighted score and its status (success >= 0.65, failure <= 0.35). */
export function inferEnrichedOutcome(state: SessionState): EnrichedOutcome {
  const signals = computeOutcomeSignals(state);
  const score = Object.values(outcomeParts(signals)).reduce((a, b) => a + b, 0);
  const status: OutcomeStatus =
    score >= OUTCOME_THRESHOLDS.success
      ? "success"
      : score <= OUTCOME_THRESHOLDS.failure
        ? "failure"
        : "partial";
  return { status, score, signals, principle_credits: [] };
}

/**
 * The credit-assignment spec's calculatePrincipleCredits: each injected principle starts from the
 * outcome score, blends in the success of the tool calls it was active for (0.6/0.4;
 * a call with no active_principles counts for every injected principle), then the
 * user's sentiment (0.7/0.3), clamped to 0..1, with the reasoning.
 */
export function calculatePrincipleCredits(
  state: SessionState,
  outcome: EnrichedOutcome,
): PrincipleCredit[] {
  const ids = state.injectedPrinciples;
  const stats = new Map(ids.map((id) => [id, { succeeded: 0, total: 0 }]));
  for (const call of state.toolCalls) {
    for (const id of call.active_principles ?? ids) {
      const s = stats.get(id);
      if (!s) continue;
      s.total++;
      if (call.succeeded !== false) s.succeeded++;
    }
  }
  const feedback = outcome.signals.user_feedback;
  return ids.map((id) => {
    const s = stats.get(id)!;
    const reasons: string[] = [];
    let credit = outcome.score;
    if (s.total > 0) {
      const rate = s.succeeded / s.total;
      credit = credit * CREDIT_BLEND.outcome + rate * CREDIT_BLEND.tools;
      reasons.push(`tool_success=${(rate * 100).toFixed(0)}%`);
    }
    if (feedback.length > 0) {
      const sentiment = mean(feedback.map((f) => f.sentiment));
      credit = credit * CREDIT_BLEND.credit + sentiment * CREDIT_BLEND.sentiment;
      reasons.push(`user_sentiment=${(sentiment * 100).toFixed(0)}%`);
    }
    return {
      principle_id: id,
      credit: Math.max(0, Math.min(1, credit)),
      reasoning: reasons.join(", ") || "base_outcome",
    };
  });
}

/** Outcome and credits for a session in one call. */
export function assignCredit(state: SessionState): EnrichedOutcome {
  const outcome = inferEnrichedOutcome(state);
  return { ...outcome, principle_credits: calculatePrincipleCredits(state, outcome) };
}

/** Trust from counters: raw ratio, Laplace-smoothed ratio, and the Wilson lower bound (95%) so that two uses do not outrank two hundred. */
export function trust(
  successCount: number,
  useCount: number,
): { raw: number | null; smoothed: number; lower_bound: number } {
  // Summed credits may exceed the count by float rounding only: allow that, refuse real nonsense.
  if (!(useCount >= 0) || !(successCount >= 0) || successCount > useCount + 1e-6)
    throw new RangeError(`trust needs 0 <= success (${successCount}) <= uses (${useCount})`);
  successCount = Math.min(successCount, useCount);
  const smoothed = (successCount + 1) / (useCount + 2);
  if (useCount === 0) return { raw: null, smoothed, lower_bound: 0 };
  const p = successCount / useCount;
  const z = 1.96;
  const denominator = 1 + (z * z) / useCount;
  const centre = p + (z * z) / (2 * useCount);
  const margin = z * Math.sqrt((p * (1 - p)) / useCount + (z * z) / (4 * useCount * useCount));
  return { raw: p, smoothed, lower_bound: Math.max(0, (centre - margin) / denominator) };
}
