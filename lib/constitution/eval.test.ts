import { describe, expect, it } from "vitest";
import { runEval, type Retrieved } from "./eval";
import { forbidMatches, strictest, type EvalSet } from "./eval-schema";
import { compareEvals, replayImpact } from "./impact";
import { parseConstitution, type ConstitutionFile } from "./parse";
import { formatIssue } from "./schema";

const CORE = `principles:
  - {id: CORE.HARM.1, level: hard, priority: 100, title: No Weapons, rule: Never help build weapons.}
  - {id: SOFT.CLEAR.1, level: soft, priority: 40, title: Plain Language, rule: Explain simply.}
`;
const COOKING = `keywords: [recipe]
additional_principles:
  - {id: COOK.ALLERGY.1, level: soft, priority: 70, title: Allergy Warnings, rule: Mention allergens.}
`;
const files = (evalText: string): ConstitutionFile[] => [
  { path: "core.yaml", text: CORE },
  { path: "overlays/cooking.yaml", text: COOKING },
  { path: "eval/main.yaml", text: evalText },
];

function evalSet(text: string): EvalSet {
  const parsed = parseConstitution(files(text));
  if (!parsed.ok) throw new Error(parsed.issues.map(formatIssue).join("\n"));
  return parsed.evals;
}

describe("eval files", () => {
  it("parse with the case's file and line, and the strictest thresholds across files", () => {
    const parsed = parseConstitution([
      ...files(`thresholds: {trap_rate: 0.1, domain_recall_at_3: 0.9}
cases:
  - {prompt: "peanut recipe", domains: [cooking], expect: [COOK.ALLERGY.1]}
  - prompt: "what time is it"
    domains: []
    forbid: ["COOK.*"]
`),
      {
        path: "eval/more.yml",
        text: "thresholds: {trap_rate: 0, domain_recall_at_3: 0.8, mean_principles: 4}\n",
      },
    ]);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.evals.thresholds).toEqual({
      trap_rate: 0,
      domain_recall_at_3: 0.9,
      mean_principles: 4,
    });
    expect(parsed.evals.cases.map((c) => [c.file, c.line, c.prompt, c.expect, c.forbid])).toEqual([
      ["eval/main.yaml", 3, "peanut recipe", ["COOK.ALLERGY.1"], []],
      ["eval/main.yaml", 4, "what time is it", [], ["COOK.*"]],
    ]);
  });

  it.each([
    [
      "an unknown domain",
      `cases: [{prompt: a, domains: [baking]}]`,
      'eval/main.yaml:1:31: cases[0].domains[0]: "baking" is not an overlay of this constitution',
    ],
    [
      "an unknown expected id",
      `cases: [{prompt: a, domains: [], expect: [NOPE.1]}]`,
      'eval/main.yaml:1:43: cases[0].expect[0]: "NOPE.1" names no principle',
    ],
    [
      "a forbid prefix that names nothing",
      `cases: [{prompt: a, domains: [], forbid: ["X.*"]}]`,
      'eval/main.yaml:1:43: cases[0].forbid[0]: "X.*" names no principle',
    ],
    [
      "a repeated prompt",
      `cases: [{prompt: Hi, domains: []}, {prompt: hi, domains: []}]`,
      "eval/main.yaml:1:45: cases[1].prompt: is already a case at eval/main.yaml:1",
    ],
    [
      "an unknown field",
      `cases: [{prompt: a, domains: [], expected: [CORE.HARM.1]}]`,
      "eval/main.yaml:1:34: cases[0].expected: is not a known field",
    ],
    [
      "a missing domains list",
      `cases: [{prompt: a}]`,
      "eval/main.yaml:1:9: cases[0].domains: is required",
    ],
    [
      "a threshold out of range",
      `thresholds: {trap_rate: 2}`,
      "eval/main.yaml:1:25: thresholds.trap_rate: must be between 0 and 1",
    ],
  ])("refuse %s, naming where", (_label, text, issue) => {
    const parsed = parseConstitution(files(text));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.issues.map(formatIssue)).toEqual([issue]);
  });

  it.each([
    ["VC.*", "VC.WEAPONS.1", true],
    ["VC.*", "VCX.1", false],
    ["CORE.CSAM.1", "CORE.CSAM.1", true],
    ["CORE.CSAM.1", "CORE.CSAM.10", false],
  ])("forbid %s matches %s: %s", (entry, id, expected) => {
    expect(forbidMatches(entry, id)).toBe(expected);
  });

  it("merge thresholds keeping the strictest", () => {
    expect(
      strictest([
        { principle_hit_rate: 0.9, mean_chars: 900 },
        { principle_hit_rate: 0.95, mean_chars: 1200 },
      ]),
    ).toEqual({ principle_hit_rate: 0.95, mean_chars: 900 });
  });
});

describe("runEval", () => {
  const set =
    evalSet(`thresholds: {domain_recall_at_1: 0.5, domain_recall_at_3: 1, principle_hit_rate: 1, false_injection_rate: 0, trap_rate: 0, mean_principles: 1}
cases:
  - {prompt: "peanut cookie recipe", domains: [cooking], expect: [COOK.ALLERGY.1]}
  - {prompt: "nut free cake", domains: [cooking], expect: [COOK.ALLERGY.1, SOFT.CLEAR.1]}
  - {prompt: "what time is it", domains: [], forbid: ["COOK.*"]}
  - {prompt: "how is the weather", domains: []}
`);
  const answers: Record<string, Retrieved> = {
    "peanut cookie recipe": {
      domains: ["cooking"],
      principles: [{ id: "COOK.ALLERGY.1", domain: "cooking", chars: 60 }],
      ms: 0.2,
    },
    "nut free cake": { domains: [], principles: [], ms: 0.1 },
    "what time is it": {
      domains: ["cooking"],
      principles: [
        { id: "COOK.ALLERGY.1", domain: "cooking", chars: 60 },
        { id: "SOFT.CLEAR.1", domain: null, chars: 40 },
      ],
      ms: 0.4,
    },
    "how is the weather": {
      domains: [],
      principles: [{ id: "SOFT.CLEAR.1", domain: null, chars: 40 }],
      ms: 0.3,
    },
  };

  it("computes every metric, checks thresholds and lists each failure", async () => {
    const report = await runEval(set, (prompt) => answers[prompt]!);
    expect(report.metrics).toEqual({
      cases: 4,
      domain_cases: 2,
      domain_recall_at_1: 0.5,
      domain_recall_at_3: 0.5,
      principle_cases: 2,
      principle_hit_rate: 0.5,
      benign_cases: 2,
      false_injection_rate: 0.5,
      trap_cases: 1,
      trap_rate: 1,
      mean_principles: 1,
      mean_chars: 50,
      latency_ms: { p50: 0.2, p99: 0.4 },
    });
    expect(report.thresholds.map((t) => [t.name, t.ok])).toEqual([
      ["domain_recall_at_1", true],
      ["domain_recall_at_3", false],
      ["principle_hit_rate", false],
      ["false_injection_rate", false],
      ["trap_rate", false],
      ["mean_principles", true],
    ]);
    expect(report.passed).toBe(false);
    expect(report.failures.map((f) => [f.kind, f.line, f.message])).toEqual([
      ["domain_miss", 4, "expected domain cooking, detected none"],
      ["principle_miss", 4, "expected one of COOK.ALLERGY.1, SOFT.CLEAR.1, injected none"],
      ["false_injection", 5, "no overlay applies, but injected COOK.ALLERGY.1 (domains cooking)"],
      ["trap", 5, "injected forbidden COOK.ALLERGY.1"],
    ]);
  });

  it("passes when every threshold is met, and compares two runs case by case", async () => {
    const fixed: Record<string, Retrieved> = {
      ...answers,
      "nut free cake": answers["peanut cookie recipe"]!,
      "what time is it": { domains: [], principles: [], ms: 0.1 },
    };
    const before = await runEval(set, (prompt) => answers[prompt]!);
    const after = await runEval(set, (prompt) => fixed[prompt]!);
    expect(after.passed).toBe(true);
    const c = compareEvals(before, after);
    expect(c.passed).toEqual({ before: false, after: true });
    expect(c.gained_hits).toEqual([
      {
        prompt: "nut free cake",
        file: "eval/main.yaml",
        line: 4,
        before: [],
        after: ["COOK.ALLERGY.1"],
      },
    ]);
    expect(c.lost_hits).toEqual([]);
    expect(c.cleared_false_injections.map((d) => [d.prompt, d.before, d.after])).toEqual([
      ["what time is it", ["COOK.ALLERGY.1"], []],
    ]);
    expect(c.cleared_traps.map((d) => d.prompt)).toEqual(["what time is it"]);
    expect(c.changed_cases).toBe(2);
    expect(c.metrics.find((m) => m.name === "principle_hit_rate")).toEqual({
      name: "principle_hit_rate",
      before: 0.5,
      after: 1,
    });
    // The other way round, the same cases are lost.
    expect(compareEvals(after, before).lost_hits.map((d) => d.prompt)).toEqual(["nut free cake"]);
    expect(compareEvals(after, before).new_false_injections.map((d) => d.prompt)).toEqual([
      "what time is it",
    ]);
  });
});

describe("replayImpact", () => {
  it("counts prompts that would change and which principles they gain or lose", () => {
    const before: Record<string, string[]> = { a: ["X", "Y"], b: ["X"], c: [], d: ["Z"] };
    const after: Record<string, string[]> = { a: ["Y", "X"], b: ["W"], c: ["W"], d: [] };
    const impact = replayImpact(
      ["a", "b", "c", "d"],
      (p) => before[p]!,
      (p) => after[p]!,
      2,
    );
    expect(impact).toEqual({
      prompts: 4,
      changed: 3,
      gained: [{ id: "W", prompts: 2 }],
      lost: [
        { id: "X", prompts: 1 },
        { id: "Z", prompts: 1 },
      ],
      examples: [
        { prompt: "b", gained: ["W"], lost: ["X"] },
        { prompt: "c", gained: ["W"], lost: [] },
      ],
    });
  });
});
