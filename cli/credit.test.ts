import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { analyzeUserFeedback, assignCredit, sessionStateSchema } from "@/lib/credit";
import type { z } from "zod";
import { feedbackInputSchema } from "./commands/credit";
import { EXIT } from "./errors";

const BIN = path.resolve(import.meta.dirname, "../bin/charter.mjs");

function charter(command: "feedback" | "credit", input: unknown, args: string[] = []) {
  const result = spawnSync(process.execPath, [BIN, command, "--json", ...args], {
    input: typeof input === "string" ? input : JSON.stringify(input),
    encoding: "utf8",
    timeout: 60_000,
  });
  return {
    code: result.status,
    stderr: result.stderr,
    body: result.status === 0 ? (JSON.parse(result.stdout) as unknown) : null,
  };
}

const SESSION = {
  sessionId: "sess-1",
  prompts: ["refactor the parser", "thanks"],
  injectedPrinciples: ["P1", "P2", "P3"],
  toolCalls: [
    {
      tool: "Edit",
      input: { file_path: "src/parser.ts" },
      output: "ok",
      succeeded: true,
      active_principles: ["P1"],
    },
    {
      tool: "Bash",
      input: { command: "npm test" },
      output: "exit code: 1",
      succeeded: false,
      active_principles: ["P1", "P2"],
    },
  ],
  userFeedback: [analyzeUserFeedback("thanks", ["refactor the parser"], [])],
};

describe("charter feedback --json", () => {
  it.each([
    [
      "explicit praise",
      {
        prompt: "thanks, but that's wrong",
        previous_prompts: ["fix the parser"],
        recent_tool_calls: [],
      },
    ],
    [
      "a retry",
      {
        prompt: "refactor login handler again",
        previous_prompts: ["refactor the login handler"],
        recent_tool_calls: [],
      },
    ],
    [
      "a continuation",
      {
        prompt: "write release notes",
        previous_prompts: ["refactor the login handler"],
        recent_tool_calls: [{ tool: "Edit" }],
      },
    ],
    ["a first prompt with the lists left out", { prompt: "refactor the login handler" }],
  ] as [string, z.input<typeof feedbackInputSchema>][])(
    "prints the UserFeedback for %s",
    (_case, input) => {
      const { code, body } = charter("feedback", input);
      expect(code).toBe(EXIT.ok);
      const parsed = feedbackInputSchema.parse(input);
      expect(body).toEqual(
        analyzeUserFeedback(parsed.prompt, parsed.previous_prompts, parsed.recent_tool_calls),
      );
    },
    60_000,
  );

  it.each([
    ["not json", /^charter: stdin is not valid JSON/],
    [{ previous_prompts: [] }, /^charter: invalid feedback input: prompt: /],
    [
      { prompt: "hi", previous_prompts: ["a", 3] },
      /^charter: invalid feedback input: previous_prompts\.1: /,
    ],
    [{ prompt: "hi", extra: true }, /Unrecognized key/],
  ])(
    "refuses %j with exit 1 and one line naming the field",
    (input, message) => {
      const { code, stderr } = charter("feedback", input);
      expect(code).toBe(EXIT.invalid);
      expect(stderr.trim().split("\n")).toHaveLength(1);
      expect(stderr.trim()).toMatch(message);
    },
    60_000,
  );
});

describe("charter credit --json", () => {
  it("prints the outcome and each injected principle's credit", () => {
    const { code, body } = charter("credit", SESSION);
    expect(code).toBe(EXIT.ok);
    const { status, score, signals, principle_credits } = assignCredit(
      sessionStateSchema.parse(SESSION),
    );
    expect(body).toEqual({ outcome: { status, score, signals }, principle_credits, warnings: [] });
    expect(Object.keys(body as object)).toEqual(["outcome", "principle_credits", "warnings"]);
    expect(
      (body as { principle_credits: { principle_id: string }[] }).principle_credits.map(
        (c) => c.principle_id,
      ),
    ).toEqual(SESSION.injectedPrinciples);
  }, 60_000);

  it("credits an evolver-harness session file named as an argument, calls without succeeded counted successes", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "charter-credit-"));
    const file = path.join(dir, "b8f6.json");
    writeFileSync(
      file,
      JSON.stringify({
        sessionId: "b8f6",
        prompts: ["Tidy the README"],
        injectedPrinciples: ["P1"],
        toolCalls: [
          {
            tool: "Edit",
            input: { file_path: "README.md" },
            output: { filePath: "README.md" },
            timestamp: "2025-11-29T20:30:09.000Z",
          },
        ],
      }),
    );
    const { code, stderr, body } = charter("credit", "", [file]);
    expect([code, stderr]).toEqual([EXIT.ok, ""]);
    expect(body).toMatchObject({
      outcome: { status: "success", signals: { tool_success_rate: 1, edit_count: 1 } },
      principle_credits: [{ principle_id: "P1", reasoning: "tool_success=100%" }],
      warnings: [],
    });
  }, 60_000);

  it("warns on stderr about what looked wrong and still credits, exit 0", () => {
    const { code, stderr, body } = charter("credit", { toolCalls: [{ input: {} }] });
    expect(code).toBe(EXIT.ok);
    expect(stderr).toBe(
      'charter: warning: no sessionId: credited as session "unknown", as evolver-harness\'s SessionEnd does\ncharter: warning: toolCalls.0: no tool name; counted as a call that is not an edit\n',
    );
    expect(
      (body as { outcome: { signals: { tool_success_rate: number } } }).outcome.signals
        .tool_success_rate,
    ).toBe(1);
  }, 60_000);

  it("refuses a file that cannot be read, naming it", () => {
    const { code, stderr } = charter("credit", "", ["/nonexistent/charter-session.json"]);
    expect(code).toBe(EXIT.invalid);
    expect(stderr).toMatch(/^charter: cannot read \/nonexistent\/charter-session\.json: ENOENT/);
  }, 60_000);

  it.each([
    ["not json", /^charter: stdin is not valid JSON/],
    [
      { sessionId: "s", toolCalls: [{ tool: "Read", succeeded: "false" }] },
      /^charter: invalid session state: toolCalls\.0\.succeeded: must be true or false/,
    ],
    [
      { sessionId: "s", toolCalls: "Read" },
      /^charter: invalid session state: toolCalls: must be a list/,
    ],
    [
      {
        sessionId: "s",
        userFeedback: [{ sentiment: 2, type: "neutral", confidence: 0.5, prompt_index: 0 }],
      },
      /^charter: invalid session state: userFeedback\.0\.sentiment: /,
    ],
  ])(
    "refuses %j with exit 1 and one line naming the field",
    (input, message) => {
      const { code, stderr } = charter("credit", input);
      expect(code).toBe(EXIT.invalid);
      expect(stderr.trim().split("\n")).toHaveLength(1);
      expect(stderr.trim()).toMatch(message);
    },
    60_000,
  );
});
