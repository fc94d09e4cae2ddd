import type { UserFeedback } from "./schema";

/** The credit-assignment spec's FEEDBACK_PATTERNS; explicit positive is checked before explicit negative. */
export const FEEDBACK_PATTERNS = {
  explicit_positive: [
    /\b(thanks|thank you|perfect|great|awesome|works|excellent|nice|good job)\b/i,
    /^(yes|yep|yeah|correct|exactly)[.!]?$/i,
  ],
  explicit_negative: [
    /\b(wrong|incorrect|no[,.]|not what|undo|revert|rollback|broken|failed)\b/i,
    /\b(try again|start over|that's not|doesn't work)\b/i,
  ],
} as const;

/** The credit-assignment spec's thresholds and the feedback each rule gives. */
export const RETRY_OVERLAP = 0.6;
export const CONTINUATION_OVERLAP = 0.2;
export const FEEDBACK_RESULTS = {
  explicit_positive: { sentiment: 1.0, confidence: 0.9 },
  explicit_negative: { sentiment: 0.0, confidence: 0.9 },
  implicit_retry: { sentiment: 0.2, confidence: 0.7 },
  implicit_continuation: { sentiment: 0.7, confidence: 0.6 },
  neutral: { sentiment: 0.5, confidence: 0.5 },
} as const;

function keywords(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/\W+/)
      .filter((w) => w.length > 3),
  );
}

/** The credit-assignment spec's keyword overlap: Jaccard over lower-case words longer than 3 characters, split on non-word characters. */
export function computeKeywordOverlap(a: string, b: string): number {
  const wordsA = keywords(a);
  const wordsB = keywords(b);
  if (wordsA.size === 0 || wordsB.size === 0) return 0;
  const intersection = [...wordsA].filter((w) => wordsB.has(w)).length;
  const union = new Set([...wordsA, ...wordsB]).size;
  return intersection / union;
}

/**
 * What a prompt says about the agent's previous work (docs/spec/credit-assignment.md, analyzeUserFeedback):
 * explicit praise, explicit complaint, a retry of the previous request (overlap
 * above 0.6), a continuation to something new after tools ran (overlap below 0.2),
 * or neutral.
 */
export function analyzeUserFeedback(
  prompt: string,
  previousPrompts: readonly string[],
  recentToolCalls: readonly unknown[],
): UserFeedback {
  const prompt_index = previousPrompts.length;
  for (const type of ["explicit_positive", "explicit_negative"] as const) {
    for (const pattern of FEEDBACK_PATTERNS[type]) {
      if (pattern.test(prompt))
        return {
          ...FEEDBACK_RESULTS[type],
          type,
          prompt_index,
          matched_patterns: [pattern.source],
        };
    }
  }
  const last = previousPrompts.at(-1);
  if (last !== undefined) {
    const similarity = computeKeywordOverlap(prompt, last);
    if (similarity > RETRY_OVERLAP)
      return { ...FEEDBACK_RESULTS.implicit_retry, type: "implicit_retry", prompt_index };
    if (recentToolCalls.length > 0 && similarity < CONTINUATION_OVERLAP)
      return {
        ...FEEDBACK_RESULTS.implicit_continuation,
        type: "implicit_continuation",
        prompt_index,
      };
  }
  return { ...FEEDBACK_RESULTS.neutral, type: "neutral", prompt_index };
}
