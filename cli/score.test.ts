import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PRINCIPLES } from "@/lib/reward";
import { SEED_REWARD_EXAMPLES } from "@/test/fixtures/seeds/turn-score";
import { EXIT } from "./errors";

const BIN = path.resolve(import.meta.dirname, "../bin/charter.mjs");

function score(input: unknown, args: string[] = []) {
  const result = spawnSync(process.execPath, [BIN, "score", "--json", ...args], {
    input: typeof input === "string" ? input : JSON.stringify(input),
    encoding: "utf8",
    timeout: 60_000,
  });
  return {
    code: result.status,
    stderr: result.stderr,
    body: result.status === 0 ? (JSON.parse(result.stdout) as Record<string, unknown>) : null,
  };
}

describe("charter score --json", () => {
  it("prints the seven scores, totals and reasoning for the turn-score spec's example 3", () => {
    const example = SEED_REWARD_EXAMPLES.find((e) => e.name.startsWith("example 3"))!;
    const { code, body } = score({
      action: "send_message",
      turn_result: example.turn,
      has_mutations: example.hasMutations,
    });
    expect(code).toBe(EXIT.ok);
    expect(Object.keys(body!)).toEqual([
      "scores",
      "weighted_total",
      "max_total",
      "normalized_total",
      "reasoning",
      "ignored_fields",
      "warnings",
    ]);
    expect(Object.keys(body!.scores as object)).toEqual([...PRINCIPLES]);
    expect(body!.scores).toMatchObject({
      composable: example.expect.composable,
      ethical: example.expect.ethical,
    });
    expect(body!.max_total).toBe(8.7);
    expect(body!.reasoning).toMatch(/composable 0\.7/);
  }, 60_000);

  it("uses custom weights, a missing principle weighing 1.0", () => {
    const { body } = score({
      action: "send_message",
      turn_result: { response: "A careful and complete answer." },
      has_mutations: false,
      weights: { ethical: 3, composable: 2 },
    });
    expect(body).toMatchObject({ weighted_total: 10, max_total: 10, normalized_total: 1 });
  }, 60_000);

  it("reads a bare kgents TurnResult from a file, --has-mutations standing for the argument; kgents' unscored fields are listed, not warned about", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "charter-score-"));
    const file = path.join(dir, "turn.json");
    writeFileSync(
      file,
      JSON.stringify({
        tools_passed: false,
        tools: [{ name: "write_file" }, {}],
        user_corrected: true,
        signals: [],
        response: "Done!",
        stopping_suggestion: null,
      }),
    );
    const { code, stderr, body } = score("", [file, "--has-mutations"]);
    expect(code).toBe(EXIT.ok);
    expect(stderr).toBe("");
    expect(body).toMatchObject({
      scores: { ethical: 0.5, composable: 1, joy_inducing: 0.625 },
      reasoning:
        "send_message: ethical 0.5: files were changed but the failed tools were not acknowledged; joy_inducing 0.625: the response is 5 characters, under 20.",
      ignored_fields: ["user_corrected", "signals", "stopping_suggestion"],
      warnings: [],
    });
  }, 60_000);

  it("scores a missing turn_result 1.0 everywhere and warns about an unknown turn field on stderr, exit 0", () => {
    expect(score({ action: "fork" }).body).toMatchObject({
      weighted_total: 8.7,
      reasoning: "fork: no turn result, so every principle scored 1.0.",
    });
    const { code, stderr, body } = score({
      turn_result: { response: "A careful and complete answer.", tool_passed: false },
    });
    expect(code).toBe(EXIT.ok);
    expect(stderr).toBe(
      "charter: warning: turn_result.tool_passed: not a TurnResult field; ignored\n",
    );
    expect(body).toMatchObject({
      ignored_fields: ["tool_passed"],
      warnings: ["turn_result.tool_passed: not a TurnResult field; ignored"],
    });
  }, 60_000);

  it.each([
    ["not json", /^charter: stdin is not valid JSON/],
    [{ response: null }, /^charter: invalid turn: turn_result\.response: must be a string$/],
    [
      { turn_result: { tools: "Read" } },
      /^charter: invalid turn: turn_result\.tools: must be a list$/,
    ],
    [
      { turn_result: {}, has_mutation: true },
      /^charter: invalid turn: \(root\): Unrecognized key: "has_mutation"$/,
    ],
    [
      { turn_result: {}, has_mutations: "yes" },
      /^charter: invalid turn: has_mutations: must be true or false$/,
    ],
    [
      { turn_result: {}, weights: { ethics: 2 } },
      /^charter: invalid turn: weights: Unrecognized key: "ethics"$/,
    ],
    [{ turn_result: { response: 5 } }, /^charter: invalid turn: turn_result\.response: /],
    [
      { turn_result: { context_utilization: 2 } },
      /turn_result\.context_utilization: must be between 0 and 1/,
    ],
    [{ turn_result: {}, extra: true }, /Unrecognized key/],
  ])(
    "refuses %j with exit 1 and a message naming the field",
    (input, message) => {
      const { code, stderr } = score(input);
      expect(code).toBe(EXIT.invalid);
      expect(stderr.trim()).toMatch(message);
    },
    60_000,
  );
});
