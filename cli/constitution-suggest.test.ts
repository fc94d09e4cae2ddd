import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT } from "./errors";

const BIN = path.resolve(import.meta.dirname, "../bin/charter.mjs");
// The constitution whose eval failures have known suggestions (lib/constitution/fixtures/README.md).
const DIR = path.resolve(import.meta.dirname, "../lib/constitution/fixtures/suggest");

function charter(args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.DATABASE_URL;
  const result = spawnSync(process.execPath, [BIN, "constitution", "suggest", ...args], {
    cwd: tmpdir(),
    env,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("charter constitution suggest", () => {
  it("prints each failing case with its suggestion's metric change and diff, or why there is none", () => {
    const { code, stdout } = charter(["--dir", DIR]);
    expect(code).toBe(EXIT.ok);
    expect(stdout).toContain(`eval/main.yaml:3  "is this peanut cookie recipe safe for my class"
  principle_miss: expected one of COOK.ALLERGY.1, injected none
    suggestion: add "peanut" to COOK.ALLERGY.1's keywords
    principle hit rate 0.4000 -> 0.6000, mean principles 0.4286 -> 0.5714, mean characters 30 -> 43
    --- a/overlays/cooking.yaml
    +++ b/overlays/cooking.yaml
    @@ -12,7 +12,7 @@
         priority: 70
         title: Allergy Warnings
         rule: Mention common allergens when a recipe has them.
    -    keywords: [allergy, allergen]
    +    keywords: [allergy, allergen, peanut]
       - id: COOK.HEAT.1
         level: soft
         priority: 60
`);
    expect(stdout).toContain(
      `  false_injection: no overlay applies, but injected COOK.HEAT.1 (domains cooking)
    suggestion: remove "bake" from the cooking overlay's keywords`,
    );
    expect(stdout).toContain(`eval/main.yaml:18  "a walnut recipe"
  principle_miss: expected one of COOK.ALLERGY.1, injected none
    no single edit fixes it without breaking another case (5 tried)`);
    expect(stdout).toMatch(/\n3 of 4 failures have a suggestion \(4 cases, \d+\.\d s\)\./);
  }, 60_000);

  it("--case --json gives one case's suggestion with its diff and metrics", () => {
    const { code, stdout } = charter(["--dir", DIR, "--case", "eval/main.yaml:6", "--json"]);
    expect(code).toBe(EXIT.ok);
    const out = JSON.parse(stdout) as {
      failures: number;
      suggested: number;
      cases: {
        line: number;
        search: string;
        failures: { failure: { kind: string }; suggestion: Record<string, unknown> | null }[];
      }[];
    };
    expect(out).toMatchObject({ failures: 1, suggested: 1 });
    const [only] = out.cases;
    expect(only).toMatchObject({ line: 6, search: "complete", tried: 3, candidates: 4 });
    const suggestion = only!.failures[0]!.suggestion!;
    expect(suggestion).toMatchObject({
      edit: {
        op: "remove_keyword",
        target: { kind: "overlay", domain: "cooking" },
        keywords: ["bake"],
      },
      summary: `remove "bake" from the cooking overlay's keywords`,
      path: "overlays/cooking.yaml",
    });
    expect(suggestion.diff).toContain("\n-  - bake\n");
    expect(suggestion).not.toHaveProperty("text");
  }, 60_000);

  it("says a passing case has nothing to suggest, and refuses a place that holds no case", () => {
    const passing = charter(["--dir", DIR, "--case", "eval/main.yaml:11"]);
    expect(passing.code).toBe(EXIT.ok);
    expect(passing.stdout.trim()).toBe("eval/main.yaml:11 passes: nothing to suggest.");
    const nowhere = charter(["--dir", DIR, "--case", "eval/main.yaml:12"]);
    expect(nowhere.code).toBe(EXIT.usage);
    expect(nowhere.stderr.trim()).toBe("charter: No eval case starts at eval/main.yaml:12.");
    expect(charter(["--dir", DIR, "--case", "main.yaml"]).code).toBe(EXIT.usage);
  }, 60_000);
});
