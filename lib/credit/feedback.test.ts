import { describe, expect, it } from "vitest";
import {
  SEED_FEEDBACK_PATTERN_SOURCES,
  SEED_FEEDBACK_VALUES,
  SEED_OVERLAP_THRESHOLDS,
} from "@/test/fixtures/seeds/credit";
import { analyzeUserFeedback, computeKeywordOverlap, FEEDBACK_PATTERNS } from "./feedback";
import { userFeedbackSchema } from "./schema";

type Explicit = keyof typeof SEED_FEEDBACK_PATTERN_SOURCES;
const RETRY_OVERLAP = SEED_OVERLAP_THRESHOLDS.retryAbove;
const CONTINUATION_OVERLAP = SEED_OVERLAP_THRESHOLDS.continuationBelow;

describe("feedback values (docs/spec/credit-assignment.md § Phase 2)", () => {
  it.each([
    ["explicit_positive", "thanks", [], []],
    ["explicit_negative", "that is wrong", [], []],
    ["implicit_retry", "refactor login handler again", ["refactor the login handler"], []],
    ["implicit_continuation", "write release notes", ["refactor the login handler"], [{}]],
    ["neutral", "something", [], []],
  ] as const)("%s has the spec's sentiment and confidence", (type, prompt, previous, tools) => {
    expect(analyzeUserFeedback(prompt, previous, tools)).toMatchObject({
      ...SEED_FEEDBACK_VALUES[type],
      type,
    });
  });
  it("uses the spec's patterns, positive first", () => {
    expect(FEEDBACK_PATTERNS.explicit_positive.map((p) => p.source)).toEqual(
      SEED_FEEDBACK_PATTERN_SOURCES.explicit_positive,
    );
    expect(FEEDBACK_PATTERNS.explicit_negative.map((p) => p.source)).toEqual(
      SEED_FEEDBACK_PATTERN_SOURCES.explicit_negative,
    );
  });
});
const TOOL_RAN = [{ tool: "Read" }];

describe("user feedback detection works for explicit positive/negative", () => {
  // [prompt, type, index of the pattern in FEEDBACK_PATTERNS[type] that must match]
  const rows: [string, Explicit, number][] = [
    ["thanks, that fixed it", "explicit_positive", 0],
    ["Perfect", "explicit_positive", 0],
    ["good job on the refactor", "explicit_positive", 0],
    ["it WORKS now", "explicit_positive", 0],
    ["thanks, but that's wrong", "explicit_positive", 0],
    ["yes", "explicit_positive", 1],
    ["Exactly!", "explicit_positive", 1],
    ["yep.", "explicit_positive", 1],
    ["that is wrong", "explicit_negative", 0],
    ["that's incorrect", "explicit_negative", 0],
    ["please revert the change", "explicit_negative", 0],
    ["yes, but the build is broken", "explicit_negative", 0],
    ["let's start over", "explicit_negative", 1],
    ["try again with tabs", "explicit_negative", 1],
    ["it doesn't work", "explicit_negative", 1],
    ["that's not it", "explicit_negative", 1],
  ];

  it.each(rows)("%j is %s by pattern %i", (prompt, type, index) => {
    const feedback = analyzeUserFeedback(prompt, ["an earlier request"], TOOL_RAN);
    expect(feedback).toEqual({
      ...SEED_FEEDBACK_VALUES[type],
      type,
      prompt_index: 1,
      matched_patterns: [SEED_FEEDBACK_PATTERN_SOURCES[type][index]!],
    });
  });

  it("has a row for every pattern of FEEDBACK_PATTERNS", () => {
    const covered = new Set(rows.map(([, type, index]) => `${type}:${index}`));
    const patterns = (Object.keys(SEED_FEEDBACK_PATTERN_SOURCES) as Explicit[]).flatMap((type) =>
      SEED_FEEDBACK_PATTERN_SOURCES[type].map((_, index) => `${type}:${index}`),
    );
    expect([...covered].sort()).toEqual(patterns.sort());
  });

  it("checks positive before negative even when only the negative pattern comes first in the text", () => {
    const prompt = "wrong file, thanks";
    expect(FEEDBACK_PATTERNS.explicit_negative[0].test(prompt)).toBe(true);
    expect(analyzeUserFeedback(prompt, [], []).type).toBe("explicit_positive");
  });

  it("takes explicit feedback over a retry of the same words", () => {
    expect(analyzeUserFeedback("thanks", ["thanks"], TOOL_RAN).type).toBe("explicit_positive");
  });

  it.each([["the parser handles tabs"], ["yes please and also add tests"], ["nothing to add"]])(
    "%j is not explicit feedback",
    (prompt) => {
      const feedback = analyzeUserFeedback(prompt, [], []);
      expect(feedback.type).toBe("neutral");
      expect(feedback.matched_patterns).toBeUndefined();
    },
  );

  it("returns feedback the schema accepts", () => {
    expect(userFeedbackSchema.parse(analyzeUserFeedback("thanks", [], []))).toEqual(
      analyzeUserFeedback("thanks", [], []),
    );
  });
});

describe("user feedback detection works for implicit retry/continuation", () => {
  describe("computeKeywordOverlap", () => {
    it.each([
      ["lower-cases", "Fix the Parser", "fix the parser", 1],
      ["splits on non-word characters", "parser-config", "parser config", 1],
      ["keeps underscores inside a word", "snake_case", "snake case", 0],
      ["ignores words of 3 characters or fewer", "abc abcd", "abcd", 1],
      ["is Jaccard over the word sets", "alpha bravo", "bravo charlie", 1 / 3],
      ["counts a repeated word once", "alpha alpha bravo", "alpha", 1 / 2],
      ["matches whole words only", "word", "words", 0],
      ["is 0 when one side has no long words", "the cat sat", "the cat sat", 0],
      ["is 0 for an empty side", "", "anything here", 0],
    ])("%s: %j vs %j -> %s", (_rule, a, b, expected) => {
      expect(computeKeywordOverlap(a, b)).toBe(expected);
      expect(computeKeywordOverlap(b, a)).toBe(expected);
    });
  });

  const PREVIOUS = "refactor the login handler";
  // [case, prompt, previous prompts, tools ran, expected type, relation of the overlap with the last previous prompt]
  it.each([
    [
      "a near repeat is a retry, tools or not",
      "refactor login handler again",
      [PREVIOUS],
      false,
      "implicit_retry",
      "above retry",
    ],
    [
      "a near repeat with tools is still a retry",
      "refactor login handler again",
      [PREVIOUS],
      true,
      "implicit_retry",
      "above retry",
    ],
    [
      "overlap exactly at RETRY_OVERLAP is not a retry",
      "refactor the login handler again please",
      [PREVIOUS],
      true,
      "neutral",
      "at retry",
    ],
    [
      "a new task after tools ran is a continuation",
      "write release notes",
      [PREVIOUS],
      true,
      "implicit_continuation",
      "below continuation",
    ],
    [
      "a new task when no tools ran is neutral",
      "write release notes",
      [PREVIOUS],
      false,
      "neutral",
      "below continuation",
    ],
    [
      "overlap exactly at CONTINUATION_OVERLAP is not a continuation",
      "alpha delta echo",
      ["alpha bravo charlie"],
      true,
      "neutral",
      "at continuation",
    ],
    [
      "overlap just below CONTINUATION_OVERLAP is a continuation",
      "alpha delta echo foxtrot",
      ["alpha bravo charlie"],
      true,
      "implicit_continuation",
      "below continuation",
    ],
    [
      "overlap between the thresholds is neutral",
      "refactor the login page",
      [PREVIOUS],
      true,
      "neutral",
      "between",
    ],
    [
      "only the last previous prompt counts",
      "refactor login handler again",
      [PREVIOUS, "write docs"],
      true,
      "implicit_continuation",
      "below continuation",
    ],
    [
      "no previous prompt is neutral even after tools",
      "refactor login handler again",
      [],
      true,
      "neutral",
      "none",
    ],
    [
      "a repeat without words over 3 characters has overlap 0",
      "fix it",
      ["fix it"],
      true,
      "implicit_continuation",
      "below continuation",
    ],
  ] as const)("%s", (_case, prompt, previous, toolsRan, type, relation) => {
    const last = previous.at(-1);
    if (last !== undefined) {
      const overlap = computeKeywordOverlap(prompt, last);
      const expectRelation = {
        "above retry": () => expect(overlap).toBeGreaterThan(RETRY_OVERLAP),
        "at retry": () => expect(overlap).toBe(RETRY_OVERLAP),
        "at continuation": () => expect(overlap).toBe(CONTINUATION_OVERLAP),
        "below continuation": () => expect(overlap).toBeLessThan(CONTINUATION_OVERLAP),
        between: () => expect(overlap > CONTINUATION_OVERLAP && overlap < RETRY_OVERLAP).toBe(true),
        none: () => undefined,
      };
      expectRelation[relation]();
    }
    const feedback = analyzeUserFeedback(prompt, previous, toolsRan ? TOOL_RAN : []);
    expect(feedback).toEqual({
      ...SEED_FEEDBACK_VALUES[type],
      type,
      prompt_index: previous.length,
    });
  });

  it.each([[0], [1], [3]])("prompt_index is the number of previous prompts (%i)", (count) => {
    const previous = Array.from({ length: count }, (_, i) => `earlier request number ${i}`);
    expect(analyzeUserFeedback("something unrelated", previous, TOOL_RAN).prompt_index).toBe(count);
    expect(analyzeUserFeedback("thanks", previous, []).prompt_index).toBe(count);
  });
});
