import {
  METRIC_LABELS,
  type CaseDelta,
  type EvalComparison,
  type EvalReport,
  type MetricName,
  type ReplayImpact,
  type ThresholdResult,
} from "@/lib/constitution";

const num = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(4));

function limit(t: ThresholdResult | undefined): string {
  if (!t) return "";
  return `${t.direction === "min" ? ">=" : "<="} ${num(t.limit)}  ${t.ok ? "ok" : "MISSED"}`;
}

/** The eval report as people read it in a terminal: metrics against thresholds, then each failure. */
export function formatReport(report: EvalReport, label: string): string {
  const m = report.metrics;
  const t = new Map(report.thresholds.map((x) => [x.name, x]));
  const counts: Partial<Record<MetricName, string>> = {
    domain_recall_at_1: `of ${m.domain_cases} prompts with a domain`,
    domain_recall_at_3: `of ${m.domain_cases}`,
    principle_hit_rate: `of ${m.principle_cases} prompts with expected principles`,
    false_injection_rate: `of ${m.benign_cases} prompts where no overlay applies`,
    trap_rate: `of ${m.trap_cases} prompts with forbidden principles`,
  };
  const lines = [`eval: ${m.cases} cases (${label})`];
  for (const name of Object.keys(METRIC_LABELS) as MetricName[]) {
    lines.push(
      `  ${METRIC_LABELS[name].padEnd(22)} ${num(m[name]).padEnd(8)} ${limit(t.get(name)).padEnd(14)} ${counts[name] ?? ""}`.trimEnd(),
    );
  }
  lines.push(`  ${"latency p50 / p99".padEnd(22)} ${m.latency_ms.p50} ms / ${m.latency_ms.p99} ms`);
  lines.push(
    report.passed
      ? "thresholds: all met"
      : `thresholds: MISSED ${report.thresholds
          .filter((x) => !x.ok)
          .map((x) => x.name)
          .join(", ")}`,
  );
  if (report.failures.length) {
    lines.push(`failures (${report.failures.length}):`);
    for (const f of report.failures)
      lines.push(
        `  ${f.kind.padEnd(16)} ${f.file}:${f.line}  ${JSON.stringify(f.prompt)}: ${f.message}`,
      );
  }
  return lines.join("\n");
}

function deltas(title: string, list: CaseDelta[]): string[] {
  if (list.length === 0) return [];
  return [
    `${title} (${list.length}):`,
    ...list.map(
      (d) =>
        `  ${d.file}:${d.line}  ${JSON.stringify(d.prompt)}: ${d.before.join(", ") || "none"} -> ${d.after.join(", ") || "none"}`,
    ),
  ];
}

/** What the constitution under test changes against a base, on the same eval set. */
export function formatComparison(c: EvalComparison, base: string): string {
  return [
    `against ${base}: ${c.changed_cases} cases inject something different`,
    ...c.metrics
      .filter((m) => m.before !== m.after)
      .map((m) => `  ${METRIC_LABELS[m.name].padEnd(22)} ${num(m.before)} -> ${num(m.after)}`),
    ...deltas("lost hits", c.lost_hits),
    ...deltas("gained hits", c.gained_hits),
    ...deltas("new false injections", c.new_false_injections),
    ...deltas("cleared false injections", c.cleared_false_injections),
    ...deltas("new traps", c.new_traps),
    ...deltas("cleared traps", c.cleared_traps),
  ].join("\n");
}

/** A replay of stored prompts under the base and the constitution under test. */
export function formatReplay(r: ReplayImpact): string {
  const list = (xs: { id: string; prompts: number }[]) =>
    xs.map((x) => `${x.id} (${x.prompts})`).join(", ") || "none";
  return [
    `replay: ${r.changed} of ${r.prompts} prompts would change`,
    `  gained: ${list(r.gained)}`,
    `  lost:   ${list(r.lost)}`,
    ...r.examples.map(
      (e) =>
        `  ${JSON.stringify(e.prompt)}: ${[...e.gained.map((id) => `+${id}`), ...e.lost.map((id) => `-${id}`)].join(" ")}`,
    ),
  ].join("\n");
}

/**
 * The learned term weights' figures beside the keywords' own: each metric
 * cross-validated (every case answered by a model fitted without it), and its change.
 */
export function formatCrossValidated(
  keywords: EvalReport,
  learned: EvalReport,
  folds: number,
  models: { domains: number; principles: number },
): string {
  const lines = [
    `learned term weights (${models.domains} domain and ${models.principles} principle models), ${folds}-fold cross-validated:`,
  ];
  for (const name of Object.keys(METRIC_LABELS) as MetricName[]) {
    const before = keywords.metrics[name];
    const after = learned.metrics[name];
    const change = after - before;
    lines.push(
      `  ${METRIC_LABELS[name].padEnd(22)} ${num(after).padEnd(8)} keywords alone ${num(before)}${change ? ` (${change > 0 ? "+" : ""}${num(Math.round(change * 10_000) / 10_000)})` : ""}`,
    );
  }
  return lines.join("\n");
}
