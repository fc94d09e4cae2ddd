import { describe, expect, it } from "vitest";
import {
  SEED_CLAMP_CASES,
  SEED_CREDIT_BLEND as CREDIT_BLEND,
  SEED_CREDIT_CASES,
  SEED_EDIT_TOOLS as EDIT_TOOLS,
  SEED_EDIT_VALUES as EDIT_VALUES,
  SEED_ERROR_PENALTY as ERROR_PENALTY,
  SEED_OUTCOME_WEIGHTS as OUTCOME_WEIGHTS,
  SEED_STATUS_THRESHOLDS as OUTCOME_THRESHOLDS,
} from "@/test/fixtures/seeds/credit";
import { analyzeUserFeedback } from "./feedback";
import {
  assignCredit,
  calculatePrincipleCredits,
  computeOutcomeSignals,
  ERROR_COUNT_PATTERN,
  inferEnrichedOutcome,
  outcomeParts,
  trust,
} from "./outcome";
import {
  sessionStateSchema,
  type EnrichedOutcome,
  type OutcomeSignals,
  type PrincipleCredit,
  type SessionState,
  type SessionStateInput,
  type UserFeedback,
} from "./schema";
import { determineToolSuccess, TOOL_FAILURE_PATTERN } from "./tool-success";

type CallInput = NonNullable<SessionStateInput["toolCalls"]>[number];

const call = (c: Partial<CallInput> = {}): CallInput => ({ tool: "Read", succeeded: true, ...c });
const session = (s: Partial<SessionStateInput> = {}): SessionState =>
  sessionStateSchema.parse({ sessionId: "s-1", ...s });
const feedback = (sentiment: number): UserFeedback => ({
  sentiment,
  type: "neutral",
  confidence: 0.5,
  prompt_index: 0,
});
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The spec's weighted score (docs/spec/credit-assignment.md § Phase 4), spelled out from the fixture's literals. */
function weightedScore(s: OutcomeSignals): number {
  return (
    OUTCOME_WEIGHTS.tool_success * s.tool_success_rate +
    OUTCOME_WEIGHTS.user_sentiment * s.avg_sentiment +
    OUTCOME_WEIGHTS.made_edits * (s.made_edits ? EDIT_VALUES.made : EDIT_VALUES.none) +
    OUTCOME_WEIGHTS.no_errors * Math.max(0, 1 - s.error_count * ERROR_PENALTY)
  );
}

const FULL_STATE = {
  sessionId: "sess-1",
  startTime: "2026-01-01T00:00:00.000Z",
  prompts: ["refactor the parser", "thanks"],
  injectedPrinciples: ["P1", "P2"],
  toolCalls: [
    {
      tool: "Edit",
      input: { file_path: "src/parser.ts" },
      output: "ok",
      timestamp: "2026-01-01T00:00:01.000Z",
      succeeded: true,
      active_principles: ["P1"],
      prompt_index: 0,
    },
    {
      tool: "Bash",
      input: { command: "npm test" },
      output: { stdout: "exit code: 1" },
      timestamp: "2026-01-01T00:00:02.000Z",
      succeeded: false,
      active_principles: ["P1", "P2"],
      prompt_index: 0,
    },
  ],
  userFeedback: [analyzeUserFeedback("thanks", ["refactor the parser"], [])],
} satisfies SessionState;

describe("worked sessions (docs/spec/credit-assignment.md § Phase 4, § Phase 5)", () => {
  it.each(SEED_CREDIT_CASES.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const outcome = assignCredit(session(c.state));
    expect(outcome.score).toBeCloseTo(c.score, 12);
    expect(outcome.status).toBe(c.status);
    expect(outcome.principle_credits.map((p) => p.principle_id)).toEqual(
      c.credits.map((p) => p.principle_id),
    );
    c.credits.forEach((expected, i) => {
      const actual = outcome.principle_credits[i]!;
      expect(actual.credit).toBeCloseTo(expected.credit, 12);
      expect(actual.reasoning).toBe(expected.reasoning);
    });
  });
  it.each(SEED_CLAMP_CASES)("clamps a credit %s", (_name, score, succeeded, credit) => {
    const state = session({ injectedPrinciples: ["P1"], toolCalls: [call({ succeeded })] });
    const outcome = inferEnrichedOutcome(state);
    expect(calculatePrincipleCredits(state, { ...outcome, score })[0]!.credit).toBe(credit);
  });
});

describe("types compile without errors", () => {
  it("a full SessionState satisfies the schema's type and parses to itself", () => {
    expect(sessionStateSchema.parse(FULL_STATE)).toEqual(FULL_STATE);
  });

  it("the engine's results have the seed's types", () => {
    const outcome = assignCredit(FULL_STATE) satisfies EnrichedOutcome;
    const signals: OutcomeSignals = outcome.signals;
    const credits: PrincipleCredit[] = outcome.principle_credits;
    expect(Object.keys(signals).sort()).toEqual(
      [
        "tool_success_rate",
        "error_count",
        "made_edits",
        "edit_count",
        "files_touched",
        "user_feedback",
        "avg_sentiment",
        "session_continued",
        "prompt_count",
      ].sort(),
    );
    expect(credits.map((c) => Object.keys(c))).toEqual([
      ["principle_id", "credit", "reasoning"],
      ["principle_id", "credit", "reasoning"],
    ]);
  });

  it("a tool call's succeeded is a boolean", () => {
    const _bad: SessionState["toolCalls"][number] = {
      ...FULL_STATE.toolCalls[0],
      // @ts-expect-error -- succeeded must be a boolean
      succeeded: "yes",
    };
    expect(sessionStateSchema.safeParse({ ...FULL_STATE, toolCalls: [_bad] }).success).toBe(false);
  });
});

describe("sessionStateSchema errors name the field", () => {
  const fb = { sentiment: 0.5, type: "neutral", confidence: 0.5, prompt_index: 0 };
  it.each([
    [
      {
        sessionId: "s",
        toolCalls: [
          { tool: "Read", succeeded: true },
          { tool: "Bash", succeeded: "yes" },
        ],
      },
      "toolCalls.1.succeeded",
    ],
    [{ sessionId: "s", toolCalls: [{ tool: "Read", succeeded: 0 }] }, "toolCalls.0.succeeded"],
    [{ toolCalls: [] }, "sessionId"],
    [{ sessionId: "s", toolCalls: [{ tool: 7, succeeded: true }] }, "toolCalls.0.tool"],
    [{ sessionId: "s", toolCalls: ["Read"] }, "toolCalls.0"],
    [
      { sessionId: "s", toolCalls: [{ tool: "Read", succeeded: true, active_principles: "P1" }] },
      "toolCalls.0.active_principles",
    ],
    [{ sessionId: "s", prompts: ["a", 2] }, "prompts.1"],
    [{ sessionId: "s", userFeedback: [{ ...fb, sentiment: 1.5 }] }, "userFeedback.0.sentiment"],
    [{ sessionId: "s", userFeedback: [fb, { ...fb, type: "happy" }] }, "userFeedback.1.type"],
  ])("%j -> %s", (input, field) => {
    const result = sessionStateSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.path.join("."))).toEqual([field]);
  });
});

describe("sessionStateSchema reads what the credit-assignment spec's code reads", () => {
  it("a call without succeeded, or with null, parses and keeps it absent", () => {
    const state = sessionStateSchema.parse({
      sessionId: "s",
      toolCalls: [{ tool: "Read" }, { tool: "Bash", succeeded: null }],
    });
    expect(state.toolCalls.map((c) => c.succeeded)).toEqual([undefined, null]);
  });
  it("a call with no tool name parses with the empty name", () => {
    expect(
      sessionStateSchema.parse({ sessionId: "s", toolCalls: [{ succeeded: true }] }).toolCalls[0]!
        .tool,
    ).toBe("");
  });
  it("fields credit does not read take their defaults when malformed", () => {
    const [c] = sessionStateSchema.parse({
      sessionId: "s",
      toolCalls: [{ tool: "Read", timestamp: 5, prompt_index: -1 }],
    }).toolCalls;
    expect([c!.timestamp, c!.prompt_index]).toEqual(["", 0]);
  });
  it("null active_principles is read as absent (credit-assignment spec: `tc.active_principles || principleIds`)", () => {
    expect(
      sessionStateSchema.parse({
        sessionId: "s",
        toolCalls: [{ tool: "Read", active_principles: null }],
      }).toolCalls[0]!.active_principles,
    ).toBeUndefined();
  });
});

describe("multi-dimensional score produces reasonable values", () => {
  describe("outcome signals", () => {
    it.each([
      [
        "an empty session",
        {},
        {
          tool_success_rate: 1,
          error_count: 0,
          made_edits: false,
          edit_count: 0,
          files_touched: 0,
          user_feedback: [],
          avg_sentiment: 0.5,
          session_continued: false,
          prompt_count: 0,
        },
      ],
      [
        "tool_success_rate is the share of calls not marked failed",
        { toolCalls: [call(), call({ succeeded: false }), call()] },
        { tool_success_rate: 2 / 3, session_continued: true },
      ],
      [
        "error_count reads the output, not succeeded",
        { toolCalls: [call({ output: "0 errors", succeeded: true })] },
        { tool_success_rate: 1, error_count: 1 },
      ],
      [
        "error_count JSON-stringifies objects",
        {
          toolCalls: [
            call({ output: { stderr: "build failed" }, succeeded: false }),
            call({ output: { stdout: "fine" } }),
          ],
        },
        { error_count: 1 },
      ],
      [
        "a missing output is no error",
        { toolCalls: [call({ output: undefined })] },
        { error_count: 0 },
      ],
      [
        "prompt_count counts prompts",
        { prompts: ["a", "b", "c"] },
        { prompt_count: 3, session_continued: false },
      ],
      [
        "avg_sentiment is the mean of the feedback",
        { userFeedback: [feedback(1), feedback(0), feedback(0.2)] },
        { avg_sentiment: mean([1, 0, 0.2]) },
      ],
    ] as [string, Partial<SessionStateInput>, Partial<OutcomeSignals>][])(
      "%s",
      (_case, state, expected) => {
        expect(computeOutcomeSignals(session(state))).toMatchObject(expected);
      },
    );

    it.each([
      ["exception", "NullPointerException at Main.java:3"],
      ["denied", "Permission denied"],
    ])("an output saying %s fails the tool but is not an error", (_word, output) => {
      expect(TOOL_FAILURE_PATTERN.test(output)).toBe(true);
      expect(ERROR_COUNT_PATTERN.test(output)).toBe(false);
      const signals = computeOutcomeSignals(
        session({
          toolCalls: [
            call({ tool: "Bash", output, succeeded: determineToolSuccess("Bash", output) }),
          ],
        }),
      );
      expect(signals).toMatchObject({ tool_success_rate: 0, error_count: 0 });
    });

    it.each(EDIT_TOOLS.map((tool) => [tool]))("%s is an edit tool", (tool) => {
      expect(
        computeOutcomeSignals(
          session({ toolCalls: [call({ tool, input: { file_path: "a.ts" } })] }),
        ),
      ).toMatchObject({ made_edits: true, edit_count: 1, files_touched: 1 });
    });

    it.each([["Read"], ["Bash"], ["edit"], ["MultiEditor"]])("%s is not an edit tool", (tool) => {
      expect(
        computeOutcomeSignals(
          session({ toolCalls: [call({ tool, input: { file_path: "a.ts", path: "b.ts" } })] }),
        ),
      ).toMatchObject({ made_edits: false, edit_count: 0, files_touched: 0 });
    });

    it.each([
      ["file_path and path both name files", [{ file_path: "a.ts" }, { path: "b.ts" }], 2],
      ["a file edited twice counts once", [{ file_path: "a.ts" }, { path: "a.ts" }], 1],
      [
        "file_path is read before path",
        [{ file_path: "a.ts", path: "b.ts" }, { file_path: "a.ts" }],
        1,
      ],
      ["a path that is not a string is ignored", [{ file_path: 42 }, {}], 0],
      [
        "an empty file_path falls back to path (seed: file_path || path)",
        [{ file_path: "", path: "a.ts" }, { file_path: "a.ts" }],
        1,
      ],
      ["an empty file_path alone names no file (seed: file_path || path)", [{ file_path: "" }], 0],
    ] as [string, Record<string, unknown>[], number][])(
      "files touched: %s",
      (_case, inputs, files) => {
        const toolCalls = inputs.map((input, i) =>
          call({ tool: EDIT_TOOLS[i % EDIT_TOOLS.length], input }),
        );
        expect(computeOutcomeSignals(session({ toolCalls }))).toMatchObject({
          edit_count: inputs.length,
          files_touched: files,
        });
      },
    );
  });

  describe("the weighted score", () => {
    it("has weights that sum to 1", () => {
      expect(Object.values(OUTCOME_WEIGHTS).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    });

    it.each([
      ["an empty session", {}],
      [
        "edits that worked, with praise",
        {
          toolCalls: [call({ tool: "Edit", input: { file_path: "a.ts" } })],
          userFeedback: [feedback(1)],
        },
      ],
      [
        "failed commands, with complaints",
        {
          toolCalls: [
            call({ tool: "Bash", output: "error", succeeded: false }),
            call({ tool: "Bash", output: "failed", succeeded: false }),
          ],
          userFeedback: [feedback(0)],
        },
      ],
      [
        "mixed",
        {
          toolCalls: [
            call({ tool: "Write", input: { path: "a.ts" } }),
            call({ output: "error", succeeded: false }),
            call(),
          ],
          userFeedback: [feedback(0.7), feedback(0.2)],
        },
      ],
    ] as [string, Partial<SessionStateInput>][])(
      "%s: score is the weighted sum of the signals",
      (_case, state) => {
        const outcome = inferEnrichedOutcome(session(state));
        expect(outcome.score).toBeCloseTo(weightedScore(outcome.signals), 12);
        expect(Object.values(outcomeParts(outcome.signals)).reduce((a, b) => a + b, 0)).toBe(
          outcome.score,
        );
        expect(outcome.principle_credits).toEqual([]);
      },
    );

    it.each([0, 1, 2, 3, 4, 5, 6, 10])(
      "%i errors take ERROR_PENALTY each from no_errors, never below 0",
      (errors) => {
        const state = session({
          toolCalls: Array.from({ length: Math.max(1, errors) }, (_, i) =>
            call({ output: i < errors ? "error" : "ok" }),
          ),
        });
        const { no_errors } = outcomeParts(computeOutcomeSignals(state));
        expect(no_errors).toBeCloseTo(
          OUTCOME_WEIGHTS.no_errors * Math.max(0, 1 - errors * ERROR_PENALTY),
          12,
        );
        expect(no_errors).toBeGreaterThanOrEqual(0);
      },
    );

    it("stays between the worst and the best session, and each good signal raises it", () => {
      const best = inferEnrichedOutcome(
        session({ toolCalls: [call({ tool: "Edit" })], userFeedback: [feedback(1)] }),
      ).score;
      const worst = inferEnrichedOutcome(
        session({
          toolCalls: Array.from({ length: 10 }, () => call({ output: "error", succeeded: false })),
          userFeedback: [feedback(0)],
        }),
      ).score;
      expect(worst).toBeCloseTo(OUTCOME_WEIGHTS.made_edits * EDIT_VALUES.none, 12);
      expect(best).toBeCloseTo(
        OUTCOME_WEIGHTS.tool_success +
          OUTCOME_WEIGHTS.user_sentiment +
          OUTCOME_WEIGHTS.made_edits * EDIT_VALUES.made +
          OUTCOME_WEIGHTS.no_errors,
        12,
      );
      expect(worst).toBeGreaterThanOrEqual(0);
      expect(best).toBeLessThanOrEqual(1);
      const base = {
        toolCalls: [call(), call({ output: "error", succeeded: false })],
        userFeedback: [feedback(0.5)],
      };
      const score = (s: Partial<SessionStateInput>) => inferEnrichedOutcome(session(s)).score;
      expect(score({ ...base, userFeedback: [feedback(1)] })).toBeGreaterThan(score(base));
      expect(
        score({ ...base, toolCalls: [...base.toolCalls, call({ tool: "Edit" })] }),
      ).toBeGreaterThan(score(base));
      expect(score({ ...base, toolCalls: [call(), call({ output: "error" })] })).toBeGreaterThan(
        score(base),
      );
      expect(score({ ...base, toolCalls: [call(), call({ succeeded: false })] })).toBeGreaterThan(
        score(base),
      );
    });
  });

  describe("status thresholds", () => {
    const EPSILON = 1e-9;
    // No tool calls and no edits: the score reaches the success threshold at sentiment 0.4.
    const nearSuccess = (sentiment: number) => session({ userFeedback: [feedback(sentiment)] });
    // Three failed calls reporting errors and no edits: the score reaches the failure threshold at sentiment 0.6.
    const nearFailure = (sentiment: number) =>
      session({
        toolCalls: Array.from({ length: 3 }, () => call({ output: "error", succeeded: false })),
        userFeedback: [feedback(sentiment)],
      });
    it.each([
      ["at", "success", nearSuccess(0.4), "success"],
      ["just above", "success", nearSuccess(0.4 + EPSILON), "success"],
      ["just below", "success", nearSuccess(0.4 - EPSILON), "partial"],
      ["at", "failure", nearFailure(0.6), "failure"],
      ["just above", "failure", nearFailure(0.6 + EPSILON), "partial"],
      ["just below", "failure", nearFailure(0.6 - EPSILON), "failure"],
    ] as const)("a score %s the %s threshold is %s", (relation, threshold, state, status) => {
      const { score, status: actual } = inferEnrichedOutcome(state);
      const t = OUTCOME_THRESHOLDS[threshold];
      if (relation === "at") expect(score).toBe(t);
      else if (relation === "just above") expect(score).toBeGreaterThan(t);
      else expect(score).toBeLessThan(t);
      expect(Math.abs(score - t)).toBeLessThan(EPSILON);
      expect(actual).toBe(status);
    });
  });
});

describe("credit assignment distributes credit appropriately", () => {
  const INJECTED = ["P1", "P2", "P3", "P4"];
  const CALLS = [
    call({ active_principles: ["P1", "P2"] }),
    call({ output: "error", succeeded: false, active_principles: ["P2"] }),
    call({ tool: "Edit", input: { file_path: "a.ts" }, active_principles: ["P2", "P3"] }),
    call({ succeeded: false, active_principles: ["P9"] }),
  ];
  const FEEDBACK = [feedback(1), feedback(0.2)];

  // [principle, its calls' success rate (null: active for no call), reasoning without feedback, reasoning with feedback]
  it.each([
    ["P1", 1, "tool_success=100%", "tool_success=100%, user_sentiment=60%"],
    ["P2", 2 / 3, "tool_success=67%", "tool_success=67%, user_sentiment=60%"],
    ["P3", 1, "tool_success=100%", "tool_success=100%, user_sentiment=60%"],
    ["P4", null, "base_outcome", "user_sentiment=60%"],
  ] as const)(
    "%s: blends the outcome with its tool success, then with sentiment",
    (id, rate, reasoning, reasoningWithFeedback) => {
      for (const [userFeedback, expectedReasoning] of [
        [[], reasoning],
        [FEEDBACK, reasoningWithFeedback],
      ] as const) {
        const state = session({
          injectedPrinciples: INJECTED,
          toolCalls: CALLS,
          userFeedback: [...userFeedback],
        });
        const outcome = assignCredit(state);
        let expected = outcome.score;
        if (rate !== null) expected = expected * CREDIT_BLEND.outcome + rate * CREDIT_BLEND.tools;
        if (userFeedback.length > 0)
          expected =
            expected * CREDIT_BLEND.credit +
            mean(userFeedback.map((f) => f.sentiment)) * CREDIT_BLEND.sentiment;
        const credit = outcome.principle_credits.find((c) => c.principle_id === id)!;
        expect(credit.credit).toBeCloseTo(expected, 12);
        expect(credit.reasoning).toBe(expectedReasoning);
      }
    },
  );

  it("credits every injected principle once, in order, and no principle that was not injected", () => {
    const { principle_credits } = assignCredit(
      session({ injectedPrinciples: INJECTED, toolCalls: CALLS }),
    );
    expect(principle_credits.map((c) => c.principle_id)).toEqual(INJECTED);
  });

  it("gives a principle active during failures less than one active during successes", () => {
    const state = session({
      injectedPrinciples: ["good", "bad"],
      toolCalls: [
        call({ active_principles: ["good"] }),
        call({ succeeded: false, active_principles: ["bad"] }),
      ],
    });
    const [good, bad] = assignCredit(state).principle_credits;
    expect(good!.credit).toBeGreaterThan(bad!.credit);
  });

  it("a principle active for no call keeps the base outcome", () => {
    const state = session({
      injectedPrinciples: ["P1", "idle"],
      toolCalls: [call({ succeeded: false, active_principles: ["P1"] })],
    });
    const outcome = assignCredit(state);
    expect(outcome.principle_credits[1]).toEqual({
      principle_id: "idle",
      credit: outcome.score,
      reasoning: "base_outcome",
    });
  });

  it("a call without active_principles counts for every injected principle", () => {
    const state = session({
      injectedPrinciples: ["P1", "P2"],
      toolCalls: [call({ succeeded: false }), call({ active_principles: ["P1"] })],
    });
    expect(assignCredit(state).principle_credits.map((c) => c.reasoning)).toEqual([
      "tool_success=50%",
      "tool_success=0%",
    ]);
  });

  it("a call with an empty active_principles counts for none (seed: active_principles || injected keeps [])", () => {
    const state = session({
      injectedPrinciples: ["P1"],
      toolCalls: [call({ succeeded: false, active_principles: [] })],
    });
    expect(assignCredit(state).principle_credits.map((c) => c.reasoning)).toEqual(["base_outcome"]);
  });

  it("credits nothing when no principle was injected", () => {
    expect(
      assignCredit(session({ toolCalls: CALLS, userFeedback: FEEDBACK })).principle_credits,
    ).toEqual([]);
  });

  it.each([
    ["above 1", 1.8, [call()], 1],
    ["below 0", -0.9, [call({ succeeded: false })], 0],
    ["above 1 with no calls", 1.2, [], 1],
    ["below 0 with no calls", -0.1, [], 0],
  ] as [string, number, CallInput[], number][])(
    "clamps a credit %s",
    (_case, score, toolCalls, expected) => {
      const state = session({ injectedPrinciples: ["P1"], toolCalls });
      const outcome = inferEnrichedOutcome(state);
      expect(calculatePrincipleCredits(state, { ...outcome, score })[0]!.credit).toBe(expected);
    },
  );

  it("assignCredit is the outcome with calculatePrincipleCredits filled in", () => {
    const state = session({
      injectedPrinciples: INJECTED,
      toolCalls: CALLS,
      userFeedback: FEEDBACK,
    });
    const outcome = inferEnrichedOutcome(state);
    expect(assignCredit(state)).toEqual({
      ...outcome,
      principle_credits: calculatePrincipleCredits(state, outcome),
    });
  });
});

describe("storage accepts fractional credits", () => {
  const state = session({
    injectedPrinciples: ["P1", "P2", "P3"],
    toolCalls: [
      call({ active_principles: ["P1", "P2"] }),
      call({ output: "error", succeeded: false, active_principles: ["P2"] }),
      call({ succeeded: false, active_principles: ["P3"] }),
    ],
    userFeedback: [feedback(0.7), feedback(0.2)],
  });
  const credits = assignCredit(state).principle_credits;

  it.each(credits.map((c) => [c.principle_id, c]))(
    "%s's credit is a number in 0..1, not rounded to 0 or 1",
    (_id, c) => {
      expect(typeof c.credit).toBe("number");
      expect(c.credit).toBeGreaterThan(0);
      expect(c.credit).toBeLessThan(1);
      expect(Number.isInteger(c.credit)).toBe(false);
      expect(JSON.parse(JSON.stringify(c)) as PrincipleCredit).toEqual(c);
    },
  );

  it("summed into success_count, the credits give a fractional raw trust equal to their mean", () => {
    const successCount = credits.reduce((sum, c) => sum + c.credit, 0);
    expect(trust(successCount, credits.length).raw).toBeCloseTo(
      mean(credits.map((c) => c.credit)),
      12,
    );
  });

  describe("trust()", () => {
    it.each([
      [0, 0, null],
      [2, 2, 1],
      [190, 200, 0.95],
      [1.4, 2, 0.7],
      [0, 5, 0],
    ])(
      "%s successes in %s uses: raw %s, smoothed (s+1)/(u+2), lower bound within 0..raw",
      (successes, uses, raw) => {
        const t = trust(successes, uses);
        if (raw === null) expect(t.raw).toBeNull();
        else expect(t.raw).toBeCloseTo(raw, 12);
        expect(t.smoothed).toBeCloseTo((successes + 1) / (uses + 2), 12);
        expect(t.lower_bound).toBeGreaterThanOrEqual(0);
        expect(t.lower_bound).toBeLessThanOrEqual(t.raw ?? 0);
      },
    );

    // The Wilson score interval's lower end at 95% (z = 1.96), worked out by hand from
    // (p + z²/2n - z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n): literals, so a changed z fails here.
    it.each([
      [2, 2, 0.342372],
      [190, 200, 0.910421],
      [1, 10, 0.017876],
      [5, 10, 0.23659],
      [7, 8, 0.529105],
      [0, 5, 0],
    ])("%s successes in %s uses: lower bound %s (Wilson, z = 1.96)", (successes, uses, bound) => {
      expect(trust(successes, uses).lower_bound).toBeCloseTo(bound, 5);
    });

    it("ranks 2 of 2 below 190 of 200 by lower bound, though its raw ratio is higher", () => {
      const few = trust(2, 2);
      const many = trust(190, 200);
      expect(few.raw!).toBeGreaterThan(many.raw!);
      expect(few.lower_bound).toBeLessThan(many.lower_bound);
    });
  });
});

describe("existing functionality not broken (backward compat)", () => {
  it("a state with only a session id parses with empty defaults and credits nothing", () => {
    const state = session();
    expect(state).toEqual({
      sessionId: "s-1",
      startTime: "",
      prompts: [],
      injectedPrinciples: [],
      toolCalls: [],
      userFeedback: [],
    });
    expect(assignCredit(state)).toMatchObject({
      principle_credits: [],
      signals: { tool_success_rate: 1, avg_sentiment: 0.5 },
    });
  });

  it("tool calls recorded before active_principles and prompt_index count for every injected principle", () => {
    const state = session({
      injectedPrinciples: ["P1", "P2"],
      toolCalls: [{ tool: "Read", input: {}, output: "ok", timestamp: "t", succeeded: true }],
    });
    expect(state.toolCalls[0]).toMatchObject({ prompt_index: 0 });
    expect(state.toolCalls[0]!.active_principles).toBeUndefined();
    expect(assignCredit(state).principle_credits.map((c) => c.reasoning)).toEqual([
      "tool_success=100%",
      "tool_success=100%",
    ]);
  });

  it("a state without userFeedback is neutral and adds no sentiment to credit", () => {
    const state = session({ injectedPrinciples: ["P1"] });
    const outcome = assignCredit(state);
    expect(outcome.signals.avg_sentiment).toBe(0.5);
    expect(outcome.principle_credits).toEqual([
      { principle_id: "P1", credit: outcome.score, reasoning: "base_outcome" },
    ]);
  });
});
