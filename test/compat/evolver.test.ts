/**
 * Charter against evolver-harness (tomnagengast/evolver-harness), the credit-assignment spec: outcome
 * signals and per-principle credit of a session.
 *
 * The first part restates the credit tests of the branch that implemented the credit-assignment spec
 * (claude/principle-success-criteria, hooks/hooks.test.ts at e05598b: feedback, tool
 * success, outcome signals, credit assignment) as Charter cases with inputs and
 * expected values written here; where the branch's code departs from the credit-assignment spec the
 * case pins Charter to the seed and says so. The second part credits session files
 * written here in each shape evolver-harness stored over its history (see
 * docs/compat-drafts/evolver.md).
 */
import { describe, expect, it } from "vitest";
import {
  analyzeUserFeedback,
  assignCredit,
  calculatePrincipleCredits,
  computeOutcomeSignals,
  determineToolSuccess,
  inferEnrichedOutcome,
  readSessionState,
  SessionStateError,
  trust,
  type EnrichedOutcome,
  type UserFeedback,
} from "@/lib/credit";

const read = (raw: unknown) => readSessionState(raw).state;
const fb = (
  sentiment: number,
  type: UserFeedback["type"],
  confidence: number,
  prompt_index: number,
): UserFeedback => ({ sentiment, type, confidence, prompt_index });
/** An outcome with a given score, as the branch's tests pass `outcomeScore` straight in. */
const outcomeOf = (score: number, user_feedback: UserFeedback[] = []): EnrichedOutcome => ({
  status: "partial",
  score,
  signals: {
    tool_success_rate: 1,
    error_count: 0,
    made_edits: false,
    edit_count: 0,
    files_touched: 0,
    user_feedback,
    avg_sentiment: 0.5,
    session_continued: false,
    prompt_count: 0,
  },
  principle_credits: [],
});

describe("evolver-harness's hooks.test.ts (e05598b), restated", () => {
  describe("User Feedback Analysis", () => {
    it("detects explicit positive feedback", () => {
      expect(analyzeUserFeedback("thanks, that works perfectly!", [], [])).toMatchObject({
        type: "explicit_positive",
        sentiment: 1,
      });
    });
    it("detects explicit negative feedback", () => {
      expect(analyzeUserFeedback("that's wrong, undo those changes", [], [])).toMatchObject({
        type: "explicit_negative",
        sentiment: 0,
      });
    });
    it("detects implicit continuation for a new unrelated task", () => {
      expect(
        analyzeUserFeedback(
          "now add a new database migration for users",
          ["fix the authentication bug"],
          [{ tool: "Edit" }],
        ),
      ).toMatchObject({ type: "implicit_continuation", sentiment: 0.7 });
    });
    it("returns neutral for an ambiguous prompt", () => {
      expect(
        analyzeUserFeedback("can you also update the README with these changes", [], []),
      ).toMatchObject({ type: "neutral", sentiment: 0.5 });
    });
    it.each([
      ["well done", "explicit_positive"],
      ["thx", "explicit_positive"],
      ["nope", "explicit_negative"],
      ["go back to the old version", "explicit_negative"],
    ])(
      "differs (the credit-assignment spec wins): the branch's extra patterns make %j %s; the seed's do not match it",
      (prompt) => {
        expect(analyzeUserFeedback(prompt, [], []).type).toBe("neutral");
      },
    );
    it("differs (the credit-assignment spec wins): the branch drops stop words such as 'please' before the overlap and calls this a retry; the seed's overlap is 2/4, so neutral", () => {
      expect(
        analyzeUserFeedback(
          "please fix the authentication bug in login.ts again",
          ["fix the authentication bug in login.ts"],
          [{ tool: "Edit" }],
        ),
      ).toEqual({
        sentiment: 0.5,
        type: "neutral",
        confidence: 0.5,
        prompt_index: 1,
      });
    });
  });

  describe("Tool Success Detection", () => {
    it.each([
      ["Bash", "exit code: 1", false],
      ["Bash", "Success!", true],
      ["Write", "permission denied", false],
      ["Edit", "File updated successfully", true],
      ["Read", "contents of file...", true],
      ["Task", "Error: something went wrong", false],
      ["Task", "Operation completed", true],
    ])("matches: %s %j -> %s", (tool, output, succeeded) => {
      expect(determineToolSuccess(tool, output)).toBe(succeeded);
    });
    it.each([
      ["Bash", "command not found: xyz", true, "the branch adds 'command not found' for Bash"],
      ["Edit", "file not found", true, "the branch adds per-tool not-found patterns"],
      ["Read", "file does not exist", true, "the branch adds per-tool not-found patterns"],
      [
        "Read",
        "Looking for the error in the code",
        false,
        "the branch excuses outputs that mention fix, found, check or looking",
      ],
      [
        "Bash",
        "Fixing the failed test",
        false,
        "the branch excuses outputs that mention fix, found, check or looking",
      ],
    ])(
      "differs (the credit-assignment spec wins): %s %j -> %s, because %s",
      (tool, output, succeeded) => {
        expect(determineToolSuccess(tool, output)).toBe(succeeded);
      },
    );
  });

  describe("Multi-Dimensional Outcome Scoring", () => {
    it("computes tool success rate from the succeeded field: 2/3, one error", () => {
      const signals = computeOutcomeSignals(
        read({
          sessionId: "test",
          toolCalls: [
            { tool: "Read", input: {}, output: "ok", timestamp: "", succeeded: true },
            { tool: "Edit", input: {}, output: "ok", timestamp: "", succeeded: true },
            { tool: "Bash", input: {}, output: "error", timestamp: "", succeeded: false },
          ],
        }),
      );
      expect([signals.tool_success_rate, signals.error_count]).toEqual([2 / 3, 1]);
    });
    it("tracks edit metrics: 3 edits of 2 files", () => {
      const signals = computeOutcomeSignals(
        read({
          sessionId: "test",
          toolCalls: [
            { tool: "Edit", input: { file_path: "/a.ts" }, output: "ok", succeeded: true },
            { tool: "Write", input: { file_path: "/b.ts" }, output: "ok", succeeded: true },
            { tool: "Edit", input: { file_path: "/a.ts" }, output: "ok", succeeded: true },
          ],
        }),
      );
      expect([signals.made_edits, signals.edit_count, signals.files_touched]).toEqual([true, 3, 2]);
    });
    it("computes average user sentiment: (1.0 + 0.7) / 2 = 0.85", () => {
      const signals = computeOutcomeSignals(
        read({
          sessionId: "test",
          toolCalls: [],
          userFeedback: [
            fb(1, "explicit_positive", 0.9, 0),
            fb(0.7, "implicit_continuation", 0.6, 1),
          ],
        }),
      );
      expect(signals.avg_sentiment).toBe(0.85);
    });
    it("defaults sentiment to 0.5 with no feedback", () => {
      expect(computeOutcomeSignals(read({ sessionId: "test", toolCalls: [] })).avg_sentiment).toBe(
        0.5,
      );
    });
    it("differs (the credit-assignment spec wins): with no call marked, the branch falls back to the output pattern; the seed counts every unmarked call a success", () => {
      const signals = computeOutcomeSignals(
        read({
          sessionId: "s",
          toolCalls: [
            { tool: "Bash", output: "Error: boom" },
            { tool: "Read", output: "ok" },
          ],
        }),
      );
      expect([signals.tool_success_rate, signals.error_count]).toEqual([1, 1]);
    });
    it("differs (the credit-assignment spec wins): the branch stores no neutral feedback; the seed keeps every prompt's, and a neutral one counts in the average", () => {
      expect(
        computeOutcomeSignals(
          read({
            sessionId: "s",
            userFeedback: [fb(1, "explicit_positive", 0.9, 1), fb(0.5, "neutral", 0.5, 2)],
          }),
        ).avg_sentiment,
      ).toBe(0.75);
    });
    it("differs (the credit-assignment spec replaces it): main's SessionEnd calls errors without edits a failure scored 0.3; the seed's outcome is partial, 0.645", () => {
      const outcome = inferEnrichedOutcome(
        read({
          sessionId: "s",
          toolCalls: [{ tool: "Read", input: {}, output: "Error: file not found", timestamp: "" }],
        }),
      );
      expect(outcome.status).toBe("partial");
      expect(outcome.score).toBeCloseTo(0.645, 12);
    });
    it("differs (the credit-assignment spec wins): the branch also counts succeeded: false as an error; the seed reads only the output", () => {
      expect(
        computeOutcomeSignals(
          read({
            sessionId: "s",
            toolCalls: [{ tool: "Bash", output: "exit code: 2", succeeded: false }],
          }),
        ).error_count,
      ).toBe(0);
    });
    it("differs (the credit-assignment spec wins): each error costs 0.2 of no_errors, not the branch's 0.15, and success starts at 0.65, not 0.6", () => {
      // 0.25 x 1 + 0.35 x 0.5 + 0.2 x 0.3 + 0.2 x (1 - 2 x 0.2) = 0.605: partial by the seed (the branch: 0.625, success).
      const outcome = inferEnrichedOutcome(
        read({
          sessionId: "s",
          toolCalls: [
            { tool: "Read", output: "error", succeeded: true },
            { tool: "Grep", output: "failed", succeeded: true },
          ],
        }),
      );
      expect(outcome.score).toBeCloseTo(0.605, 12);
      expect(outcome.status).toBe("partial");
    });
  });

  describe("Principle Credit Assignment", () => {
    const state = (toolCalls: unknown[], injectedPrinciples = ["principle-1"]) =>
      read({ sessionId: "test", injectedPrinciples, toolCalls });
    it("assigns credit based on tool success rate: 0.7 x 0.6 + 1.0 x 0.4 = 0.82", () => {
      const [credit] = calculatePrincipleCredits(
        state([
          { tool: "Edit", output: "ok", succeeded: true, active_principles: ["principle-1"] },
          { tool: "Bash", output: "ok", succeeded: true, active_principles: ["principle-1"] },
        ]),
        outcomeOf(0.7),
      );
      expect(credit!.principle_id).toBe("principle-1");
      expect(credit!.credit).toBeCloseTo(0.82, 12);
    });
    it("penalizes principles with failed tool calls: 0.7 x 0.6 = 0.42", () => {
      const [credit] = calculatePrincipleCredits(
        state([
          { tool: "Edit", output: "ok", succeeded: false, active_principles: ["principle-1"] },
          { tool: "Bash", output: "ok", succeeded: false, active_principles: ["principle-1"] },
        ]),
        outcomeOf(0.7),
      );
      expect(credit!.credit).toBeCloseTo(0.42, 12);
    });
    it("boosts credit with positive user feedback: 0.5 x 0.7 + 1.0 x 0.3 = 0.65", () => {
      const [credit] = calculatePrincipleCredits(
        state([]),
        outcomeOf(0.5, [fb(1, "explicit_positive", 0.9, 0)]),
      );
      expect(credit!.credit).toBeCloseTo(0.65, 12);
    });
    it("reduces credit with negative user feedback: 0.5 x 0.7 = 0.35", () => {
      const [credit] = calculatePrincipleCredits(
        state([]),
        outcomeOf(0.5, [fb(0, "explicit_negative", 0.9, 0)]),
      );
      expect(credit!.credit).toBeCloseTo(0.35, 12);
    });
    it("handles principles with different active contexts: 0.7 against 0.3", () => {
      const credits = calculatePrincipleCredits(
        state(
          [
            { tool: "Edit", output: "ok", succeeded: true, active_principles: ["principle-1"] },
            { tool: "Bash", output: "error", succeeded: false, active_principles: ["principle-2"] },
          ],
          ["principle-1", "principle-2"],
        ),
        outcomeOf(0.5),
      );
      expect(credits.map((c) => [c.principle_id, Number(c.credit.toFixed(10))])).toEqual([
        ["principle-1", 0.7],
        ["principle-2", 0.3],
      ]);
    });
    it("differs (the credit-assignment spec wins): the reasoning says tool_success= and user_sentiment= (the branch: tools= and sentiment=)", () => {
      const [credit] = calculatePrincipleCredits(
        state([{ tool: "Edit", succeeded: true }]),
        outcomeOf(0.5, [fb(1, "explicit_positive", 0.9, 0)]),
      );
      expect(credit!.reasoning).toBe("tool_success=100%, user_sentiment=100%");
    });
  });

  it("storage's Bayesian score (s + 1) / (u + 2) holds with fractional credit: 3.5 over 5 uses is 4.5 / 7", () => {
    expect(trust(3.5, 5).smoothed).toBe(4.5 / 7);
  });
});

describe("evolver-harness session files of each version, credited", () => {
  it("TraceLogger's LogSession (803e4fd to 9f0c088): id for sessionId, startTime in ms, a call's error marks it failed", () => {
    const { state, warnings } = readSessionState({
      id: "7d1e0c4a-1111-4222-8333-944455556666",
      taskSummary: "Make the date parser accept ISO weeks",
      problemDescription: "2026-W05 is refused",
      toolCalls: [
        {
          tool: "Read",
          input: { file_path: "src/dates.ts" },
          output: "export function parseDate() {}",
          timestamp: "2025-11-29T19:50:00.000Z",
          duration_ms: 8,
        },
        {
          tool: "Bash",
          input: { command: "bun test dates" },
          output: "1 test did not pass",
          timestamp: "2025-11-29T19:51:00.000Z",
          error: { message: "tests did not pass", code: "1" },
        },
        {
          tool: "Edit",
          input: { file_path: "src/dates.ts" },
          output: "ok",
          timestamp: "2025-11-29T19:52:00.000Z",
        },
      ],
      intermediateThoughts: ["weeks start on Monday"],
      startTime: 1764445800000,
      modelUsed: "claude-sonnet",
    });
    expect(warnings).toEqual([]);
    expect([state.sessionId, state.startTime]).toEqual([
      "7d1e0c4a-1111-4222-8333-944455556666",
      "2025-11-29T19:50:00.000Z",
    ]);
    expect(state.toolCalls.map((c) => c.succeeded)).toEqual([undefined, false, undefined]);
    const outcome = assignCredit(state);
    // 0.25 x 2/3 + 0.35 x 0.5 + 0.2 x 0.8 + 0.2 x 1
    expect(outcome.score).toBeCloseTo(0.7016666666666667, 12);
    expect([outcome.status, outcome.signals.tool_success_rate, outcome.principle_credits]).toEqual([
      "success",
      2 / 3,
      [],
    ]);
  });

  it("PostToolUse's first file (9f0c088 on): sessionId, startTime, calls without succeeded, all counted successes", () => {
    const outcome = assignCredit(
      read({
        sessionId: "b8f6",
        startTime: "2025-11-29T20:30:00.000Z",
        toolCalls: [
          {
            tool: "Read",
            input: { file_path: "README.md" },
            output: { type: "text", file: { filePath: "README.md", numLines: 40 } },
            timestamp: "2025-11-29T20:30:05.000Z",
          },
          {
            tool: "Write",
            input: { file_path: "NOTES.md", content: "todo" },
            output: { type: "create", filePath: "NOTES.md" },
            timestamp: "2025-11-29T20:30:09.000Z",
          },
        ],
      }),
    );
    // 0.25 x 1 + 0.35 x 0.5 + 0.2 x 0.8 + 0.2 x 1
    expect(outcome.score).toBeCloseTo(0.785, 12);
    expect(outcome).toMatchObject({
      status: "success",
      signals: {
        tool_success_rate: 1,
        error_count: 0,
        made_edits: true,
        edit_count: 1,
        files_touched: 1,
        user_feedback: [],
        avg_sentiment: 0.5,
        session_continued: true,
        prompt_count: 0,
      },
      principle_credits: [],
    });
  });

  it("UserPromptSubmit's first file (4edc8a1 on; injectedPrinciples from bdf9eb9): no startTime, no calls", () => {
    const outcome = assignCredit(
      read({
        sessionId: "c41a",
        prompts: ["Add a changelog entry for the date parser fix"],
        toolCalls: [],
        injectedPrinciples: ["a1b2", "c3d4"],
      }),
    );
    expect([outcome.status, outcome.score, outcome.signals.prompt_count]).toEqual([
      "success",
      0.685,
      1,
    ]);
    expect(outcome.principle_credits).toEqual([
      { principle_id: "a1b2", credit: 0.685, reasoning: "base_outcome" },
      { principle_id: "c3d4", credit: 0.685, reasoning: "base_outcome" },
    ]);
  });

  it("SessionStart's file (f83c1d0 on): exploratoryPrinciples and contextTags read silently; a truncated output is still searched for errors", () => {
    const { state, warnings } = readSessionState({
      sessionId: "d9e0",
      startTime: "2025-11-30T08:00:00.000Z",
      injectedPrinciples: ["p-1", "p-2"],
      exploratoryPrinciples: ["p-2"],
      contextTags: ["typescript", "bun"],
      prompts: ["Use prepared statements in the storage layer"],
      toolCalls: [
        {
          tool: "Edit",
          input: { file_path: "src/storage/expbase.ts" },
          output: "ok",
          timestamp: "2025-11-30T08:01:00.000Z",
        },
        {
          tool: "Bash",
          input: { command: "bun test" },
          output: { _truncated: true, preview: '{"stdout":"error: 2 tests failed' },
          timestamp: "2025-11-30T08:02:00.000Z",
        },
      ],
    });
    expect(warnings).toEqual([]);
    const outcome = assignCredit(state);
    expect([outcome.signals.tool_success_rate, outcome.signals.error_count]).toEqual([1, 1]);
    expect(outcome.score).toBeCloseTo(0.745, 12);
    expect(
      outcome.principle_credits.map((c) => [
        c.principle_id,
        Number(c.credit.toFixed(10)),
        c.reasoning,
      ]),
    ).toEqual([
      ["p-1", 0.847, "tool_success=100%"],
      ["p-2", 0.847, "tool_success=100%"],
    ]);
  });

  it("the credit-assignment spec branch's file (11ad3e8): succeeded, active_principles, prompt_index and userFeedback read as the seed does", () => {
    const outcome = assignCredit(
      read({
        sessionId: "e5f6",
        startTime: "2025-11-30T09:00:00.000Z",
        injectedPrinciples: ["p-1", "p-2"],
        prompts: ["Add retries to the HTTP client", "thanks, that works"],
        userFeedback: [
          {
            sentiment: 1,
            type: "explicit_positive",
            confidence: 0.9,
            prompt_index: 1,
            matched_patterns: ["\\b(thanks|thank you)\\b"],
          },
        ],
        toolCalls: [
          {
            tool: "Edit",
            input: { file_path: "src/http.ts" },
            output: "ok",
            timestamp: "2025-11-30T09:01:00.000Z",
            succeeded: true,
            active_principles: ["p-1", "p-2"],
            prompt_index: 0,
          },
          {
            tool: "Bash",
            input: { command: "bun test" },
            output: "exit code: 1",
            timestamp: "2025-11-30T09:02:00.000Z",
            succeeded: false,
            active_principles: ["p-2"],
            prompt_index: 0,
          },
        ],
      }),
    );
    expect(outcome.score).toBeCloseTo(0.835, 12);
    expect(
      outcome.principle_credits.map((c) => [
        c.principle_id,
        Number(c.credit.toFixed(10)),
        c.reasoning,
      ]),
    ).toEqual([
      ["p-1", 0.9307, "tool_success=100%, user_sentiment=100%"],
      ["p-2", 0.7907, "tool_success=50%, user_sentiment=100%"],
    ]);
  });

  it("a call without succeeded, or with null, counts as a success (the credit-assignment spec: tc.succeeded !== false)", () => {
    const outcome = assignCredit(
      read({
        sessionId: "s",
        injectedPrinciples: ["P1"],
        toolCalls: [
          { tool: "Read" },
          { tool: "Read", succeeded: null },
          { tool: "Read", succeeded: false },
        ],
      }),
    );
    expect(outcome.signals.tool_success_rate).toBe(2 / 3);
    expect(outcome.principle_credits[0]!.reasoning).toBe("tool_success=67%");
  });

  it("before 5958999 a call's input was typed unknown: a non-object input touches no file", () => {
    const { signals } = assignCredit(
      read({
        sessionId: "s",
        toolCalls: [
          { tool: "Write", input: "NOTES.md" },
          { tool: "Edit", input: null },
        ],
      }),
    );
    expect([signals.edit_count, signals.files_touched]).toEqual([2, 0]);
  });

  it("null lists are empty, as the hooks read `state.x || []`", () => {
    const state = read({
      sessionId: "s",
      prompts: null,
      injectedPrinciples: null,
      toolCalls: null,
      userFeedback: null,
    });
    expect([state.prompts, state.injectedPrinciples, state.toolCalls, state.userFeedback]).toEqual([
      [],
      [],
      [],
      [],
    ]);
  });

  it("an empty active_principles list credits no principle, as in the seed ([] is truthy)", () => {
    const outcome = assignCredit(
      read({
        sessionId: "s",
        injectedPrinciples: ["P1"],
        toolCalls: [{ tool: "Read", succeeded: false, active_principles: [] }],
      }),
    );
    expect(outcome.principle_credits[0]!.reasoning).toBe("base_outcome");
  });

  describe("accepted with a warning naming what looked wrong", () => {
    it.each([
      [
        { toolCalls: [] },
        ['no sessionId: credited as session "unknown", as evolver-harness\'s SessionEnd does'],
      ],
      [
        { sessionId: "s", toolCalls: [{ input: {} }] },
        ["toolCalls.0: no tool name; counted as a call that is not an edit"],
      ],
      [
        { sessionId: "s", toolCalls: [{ tool: 3 }] },
        ["toolCalls.0: a tool name that is not a string; counted as a call that is not an edit"],
      ],
      [
        { sessionId: "s", startTime: true },
        ["startTime: neither a date string nor a number; ignored"],
      ],
      [
        { sessionId: "s", sessionNotes: "x", toolCalls: [{ tool: "Read", exitCode: 0 }] },
        ["toolCalls.0: unknown field exitCode; ignored", "unknown field sessionNotes; ignored"],
      ],
    ])("%j", (raw, warnings) => {
      expect(readSessionState(raw).warnings).toEqual(warnings);
    });
  });

  describe("refused, because reading it would make the credit wrong", () => {
    it.each([
      [
        { sessionId: "s", toolCalls: [{ tool: "Read", succeeded: "false" }] },
        "toolCalls.0.succeeded: must be true or false; leave it out (or null) to count the call as a success, as the credit-assignment spec does",
      ],
      [
        { sessionId: "s", toolCalls: [{ tool: "Read", succeeded: 0 }] },
        "toolCalls.0.succeeded: must be true or false",
      ],
      [{ sessionId: "s", toolCalls: { tool: "Read" } }, "toolCalls: must be a list"],
      [{ sessionId: "s", toolCalls: ["Read"] }, "toolCalls.0: must be an object (a tool call)"],
      [{ sessionId: "s", injectedPrinciples: "P1" }, "injectedPrinciples: must be a list"],
      [
        { sessionId: "s", toolCalls: [{ tool: "Read", active_principles: "P1" }] },
        "toolCalls.0.active_principles: must be a list of principle ids",
      ],
      [
        {
          sessionId: "s",
          userFeedback: [{ sentiment: 1.5, type: "neutral", confidence: 0.5, prompt_index: 0 }],
        },
        "userFeedback.0.sentiment: must be between 0 and 1",
      ],
      [
        {
          sessionId: "s",
          userFeedback: [{ sentiment: "high", type: "neutral", confidence: 0.5, prompt_index: 0 }],
        },
        "userFeedback.0.sentiment: must be a number",
      ],
      [[{ sessionId: "s" }], "(root): must be an object (a SessionState), not a list"],
    ])("%j", (raw, message) => {
      expect(() => readSessionState(raw)).toThrow(SessionStateError);
      expect(() => readSessionState(raw)).toThrow(message);
    });
  });
});
