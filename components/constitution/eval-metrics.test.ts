import { describe, expect, it } from "vitest";
import { formatReport } from "@/cli/commands/eval-format";
import type { EvalFailure, EvalMetrics, MetricName, ThresholdResult } from "@/lib/constitution";
import { THRESHOLDS } from "@/lib/constitution/eval-schema";
import {
  changeOf,
  countsText,
  deltaRows,
  formatValue,
  groupFailures,
  METRIC_LABELS,
  METRIC_NAMES,
  metricRows,
  playgroundHref,
  thresholdText,
  trendPoints,
} from "./eval-metrics";

const metrics: EvalMetrics = {
  cases: 120,
  domain_cases: 95,
  domain_recall_at_1: 0.8947,
  domain_recall_at_3: 0.9684,
  principle_cases: 40,
  principle_hit_rate: 0.925,
  benign_cases: 25,
  false_injection_rate: 0.08,
  trap_cases: 0,
  trap_rate: 0,
  mean_principles: 2.3167,
  mean_chars: 612,
  latency_ms: { p50: 0.4, p99: 2.1 },
};

const thresholds: ThresholdResult[] = [
  { name: "domain_recall_at_3", limit: 0.95, direction: "min", value: 0.9684, ok: true },
  { name: "false_injection_rate", limit: 0.02, direction: "max", value: 0.08, ok: false },
];

describe("metric labels", () => {
  it("cover every threshold the eval knows, in the CLI's words", () => {
    expect([...METRIC_NAMES].sort()).toEqual(Object.keys(THRESHOLDS).sort());
    const printed = formatReport(
      { metrics, thresholds, passed: false, failures: [], cases: [] },
      "test",
    );
    for (const name of METRIC_NAMES) expect(printed).toContain(`  ${METRIC_LABELS[name]} `);
  });
});

describe("formatValue and thresholdText", () => {
  it.each([
    [0.95, "0.95"],
    [0.96842, "0.9684"],
    [612, "612"],
    [0, "0"],
  ])("%d reads %s", (value, text) => expect(formatValue(value)).toBe(text));

  it("gives the direction", () => {
    expect(thresholdText({ direction: "min", limit: 0.95 })).toBe(">= 0.95");
    expect(thresholdText({ direction: "max", limit: 0.02 })).toBe("<= 0.02");
  });
});

describe("countsText", () => {
  it.each<[MetricName, string]>([
    ["domain_recall_at_1", "85 of 95 prompts with a domain"],
    ["domain_recall_at_3", "92 of 95 prompts with a domain"],
    ["principle_hit_rate", "37 of 40 prompts with expected principles"],
    ["false_injection_rate", "2 of 25 prompts where no overlay applies"],
    ["trap_rate", "no prompts with forbidden principles"],
    ["mean_principles", "over 120 prompts"],
    ["mean_chars", "over 120 prompts"],
  ])("%s: %s", (name, text) => expect(countsText(name, metrics)).toBe(text));
});

describe("metricRows", () => {
  it("gives each metric with its value, counts and threshold", () => {
    const rows = metricRows(metrics, thresholds);
    expect(rows.map((r) => r.name)).toEqual(METRIC_NAMES);
    expect(rows.find((r) => r.name === "domain_recall_at_3")).toEqual({
      name: "domain_recall_at_3",
      label: "domain recall@3",
      value: "0.9684",
      counts: "92 of 95 prompts with a domain",
      threshold: { text: ">= 0.95", ok: true },
    });
    expect(rows.find((r) => r.name === "false_injection_rate")?.threshold).toEqual({
      text: "<= 0.02",
      ok: false,
    });
    expect(rows.find((r) => r.name === "mean_chars")?.threshold).toBeNull();
  });
});

describe("changeOf and deltaRows", () => {
  it.each<[MetricName, number, number, string]>([
    ["domain_recall_at_1", 0.8, 0.9, "better"],
    ["domain_recall_at_1", 0.9, 0.8, "worse"],
    ["false_injection_rate", 0.04, 0.02, "better"],
    ["trap_rate", 0, 0.1, "worse"],
    ["mean_principles", 2.5, 3, "worse"],
    ["mean_chars", 700, 650, "better"],
    ["principle_hit_rate", 0.9, 0.9, "same"],
  ])("%s %d -> %d is %s", (name, before, after, change) =>
    expect(changeOf(name, before, after)).toBe(change),
  );

  it("colours worse red when the draft misses the threshold, amber otherwise", () => {
    const rows = deltaRows(
      [
        { name: "domain_recall_at_3", before: 0.97, after: 0.96 },
        { name: "false_injection_rate", before: 0.01, after: 0.08 },
        { name: "mean_chars", before: 650, after: 612 },
        { name: "trap_rate", before: 0, after: 0 },
      ],
      thresholds,
    );
    expect(rows).toEqual([
      {
        name: "domain_recall_at_3",
        label: "domain recall@3",
        before: "0.97",
        after: "0.96",
        diff: "-0.01",
        change: "worse",
        tone: "amber",
      },
      {
        name: "false_injection_rate",
        label: "false injection rate",
        before: "0.01",
        after: "0.08",
        diff: "+0.07",
        change: "worse",
        tone: "red",
      },
      {
        name: "mean_chars",
        label: "mean characters",
        before: "650",
        after: "612",
        diff: "-38",
        change: "better",
        tone: "green",
      },
      {
        name: "trap_rate",
        label: "trap rate",
        before: "0",
        after: "0",
        diff: "",
        change: "same",
        tone: "slate",
      },
    ]);
  });
});

describe("trendPoints", () => {
  it("orders versions oldest first and leaves out versions without cases", () => {
    const points = trendPoints([
      { versionId: 4, run: { caseCount: 120, metrics: { ...metrics, domain_recall_at_1: 0.9 } } },
      { versionId: 1, run: { caseCount: 0, metrics: { ...metrics, domain_recall_at_1: 1 } } },
      { versionId: 3, run: { caseCount: 120, metrics } },
    ]);
    expect(points.map((p) => [p.version, p.domain_recall_at_1, p.mean_chars])).toEqual([
      [3, 0.8947, 612],
      [4, 0.9, 612],
    ]);
  });
});

describe("groupFailures", () => {
  it("groups by kind in a fixed order and leaves out empty kinds", () => {
    const f = (kind: EvalFailure["kind"], prompt: string): EvalFailure => ({
      kind,
      prompt,
      file: "eval/main.yaml",
      line: 3,
      message: "m",
    });
    const groups = groupFailures([f("trap", "a"), f("domain_miss", "b"), f("trap", "c")]);
    expect(groups.map((g) => [g.kind, g.label, g.failures.map((x) => x.prompt)])).toEqual([
      ["domain_miss", "Domain misses", ["b"]],
      ["trap", "Traps", ["a", "c"]],
    ]);
  });
});

describe("playgroundHref", () => {
  it("encodes the prompt as one query value", () => {
    expect(playgroundHref("a&b=c? <d> #e")).toBe("/retrieval?prompt=a%26b%3Dc%3F%20%3Cd%3E%20%23e");
  });
});
