import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PRINCIPLES, SEED_REWARD_EXAMPLES } from "@/lib/reward";
import { EXIT } from "./errors";

const BIN = path.resolve(import.meta.dirname, "../bin/charter.mjs");

function score(input: unknown) {
  const result = spawnSync(process.execPath, [BIN, "score", "--json"], { input: typeof input === "string" ? input : JSON.stringify(input), encoding: "utf8", timeout: 60_000 });
  return { code: result.status, stderr: result.stderr, body: result.status === 0 ? (JSON.parse(result.stdout) as Record<string, unknown>) : null };
}

describe("charter score --json", () => {
  it("prints the seven scores, totals and reasoning for seed 000's example 3", () => {
    const example = SEED_REWARD_EXAMPLES.find((e) => e.name.startsWith("example 3"))!;
    const { code, body } = score({ action: "send_message", turn_result: example.turn, has_mutations: example.hasMutations });
    expect(code).toBe(EXIT.ok);
    expect(Object.keys(body!)).toEqual(["scores", "weighted_total", "max_total", "normalized_total", "reasoning", "ignored_fields", "warnings"]);
    expect(Object.keys(body!.scores as object)).toEqual([...PRINCIPLES]);
    expect(body!.scores).toMatchObject({ composable: example.expect.composable, ethical: example.expect.ethical });
    expect(body!.max_total).toBe(8.7);
    expect(body!.reasoning).toMatch(/composable 0\.7/);
  }, 60_000);

  it("uses custom weights, a missing principle weighing 1.0", () => {
    const { body } = score({ action: "send_message", turn_result: { response: "A careful and complete answer." }, has_mutations: false, weights: { ethical: 3, composable: 2 } });
    expect(body).toMatchObject({ weighted_total: 10, max_total: 10, normalized_total: 1 });
  }, 60_000);

  it.each([
    ["not json", /^charter: stdin is not valid JSON/],
    [{ turn_result: { response: 5 } }, /^charter: invalid turn: turn_result\.response: /],
    [{ turn_result: { context_utilization: 2 } }, /turn_result\.context_utilization: must be between 0 and 1/],
    [{ turn_result: {}, extra: true }, /Unrecognized key/],
  ])("refuses %j with exit 1 and a message naming the field", (input, message) => {
    const { code, stderr } = score(input);
    expect(code).toBe(EXIT.invalid);
    expect(stderr.trim()).toMatch(message);
  }, 60_000);
});
