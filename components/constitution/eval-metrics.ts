import type {
  EvalFailure,
  EvalMetrics,
  FailureKind,
  MetricDelta,
  MetricName,
  ThresholdResult,
} from "@/lib/constitution";
import { THRESHOLDS } from "@/lib/constitution/eval-schema";
import { METRIC_LABELS } from "@/lib/constitution/impact";

/** The metrics in the order reports list them, with the labels the CLI prints too. */
export { METRIC_LABELS };
export const METRIC_NAMES = Object.keys(METRIC_LABELS) as MetricName[];

/** The metrics that are shares of prompts (0..1); the means are on their own scales. */
export const RATE_METRICS: MetricName[] = [
  "domain_recall_at_1",
  "domain_recall_at_3",
  "principle_hit_rate",
  "false_injection_rate",
  "trap_rate",
];
export const MEAN_METRICS: MetricName[] = ["mean_principles", "mean_chars"];

/** Lower is better for metrics whose threshold is a maximum (false injections, traps, the means). */
export const lowerIsBetter = (name: MetricName): boolean => THRESHOLDS[name] === "max";

/** A metric value as people read it: at most four decimals, no trailing zeros. */
export function formatValue(value: number): string {
  return String(Math.round(value * 10_000) / 10_000);
}

/** `>= 0.95` for a minimum, `<= 0.02` for a maximum. */
export function thresholdText(t: Pick<ThresholdResult, "direction" | "limit">): string {
  return `${t.direction === "min" ? ">=" : "<="} ${formatValue(t.limit)}`;
}

/** Which prompts a rate is measured over, by the metrics' own case counts. */
const DENOMINATORS: Record<MetricName, { of: (m: EvalMetrics) => number; what: string }> = {
  domain_recall_at_1: { of: (m) => m.domain_cases, what: "prompts with a domain" },
  domain_recall_at_3: { of: (m) => m.domain_cases, what: "prompts with a domain" },
  principle_hit_rate: { of: (m) => m.principle_cases, what: "prompts with expected principles" },
  false_injection_rate: { of: (m) => m.benign_cases, what: "prompts where no overlay applies" },
  trap_rate: { of: (m) => m.trap_cases, what: "prompts with forbidden principles" },
  mean_principles: { of: (m) => m.cases, what: "prompts" },
  mean_chars: { of: (m) => m.cases, what: "prompts" },
};

/** The counts behind a metric: "2 of 95 prompts where no overlay applies", or "over 95 prompts" for a mean. */
export function countsText(name: MetricName, m: EvalMetrics): string {
  const { of, what } = DENOMINATORS[name];
  const n = of(m);
  if (n === 0) return `no ${what}`;
  if (MEAN_METRICS.includes(name)) return `over ${n} ${what}`;
  // Rates are stored rounded to four decimals, so rounding back gives the exact count below 5,000 cases.
  return `${Math.round(m[name] * n)} of ${n} ${what}`;
}

export type MetricRow = {
  name: MetricName;
  label: string;
  value: string;
  counts: string;
  /** Null when the eval set sets no threshold for this metric. */
  threshold: { text: string; ok: boolean } | null;
};

/** One row per metric: its value, the counts behind it and its threshold, met or missed. */
export function metricRows(
  metrics: EvalMetrics,
  thresholds: readonly ThresholdResult[],
): MetricRow[] {
  const byName = new Map(thresholds.map((t) => [t.name, t]));
  return METRIC_NAMES.map((name) => {
    const t = byName.get(name);
    return {
      name,
      label: METRIC_LABELS[name],
      value: formatValue(metrics[name]),
      counts: countsText(name, metrics),
      threshold: t ? { text: thresholdText(t), ok: t.ok } : null,
    };
  });
}

export type Change = "better" | "worse" | "same";
export type DeltaRow = {
  name: MetricName;
  label: string;
  before: string;
  after: string;
  diff: string;
  change: Change;
  tone: "green" | "amber" | "red" | "slate";
};

/** Whether `after` is better or worse than `before`, given the metric's direction. */
export function changeOf(name: MetricName, before: number, after: number): Change {
  if (before === after) return "same";
  return after < before === lowerIsBetter(name) ? "better" : "worse";
}

/**
 * Metric deltas of an impact preview. A worse value is red when the draft misses that
 * metric's threshold and amber when it still meets it (or none is set); better is green.
 */
export function deltaRows(
  deltas: readonly MetricDelta[],
  draftThresholds: readonly ThresholdResult[],
): DeltaRow[] {
  const missed = new Set(draftThresholds.filter((t) => !t.ok).map((t) => t.name));
  return deltas.map(({ name, before, after }) => {
    const change = changeOf(name, before, after);
    const diff = after - before;
    return {
      name,
      label: METRIC_LABELS[name],
      before: formatValue(before),
      after: formatValue(after),
      diff: change === "same" ? "" : `${diff > 0 ? "+" : "-"}${formatValue(Math.abs(diff))}`,
      change,
      tone:
        change === "better"
          ? "green"
          : change === "same"
            ? "slate"
            : missed.has(name)
              ? "red"
              : "amber",
    };
  });
}

export type TrendPoint = { version: number } & Record<MetricName, number>;

/**
 * Chart points, oldest version first. Versions without eval cases are left out: their
 * metrics measure nothing (recall over no prompts counts as 1).
 */
export function trendPoints(
  history: readonly { versionId: number; run: { caseCount: number; metrics: EvalMetrics } }[],
): TrendPoint[] {
  return history
    .filter(({ run }) => run.caseCount > 0)
    .toSorted((a, b) => a.versionId - b.versionId)
    .map(({ versionId, run }) => ({
      version: versionId,
      ...(Object.fromEntries(METRIC_NAMES.map((name) => [name, run.metrics[name]])) as Record<
        MetricName,
        number
      >),
    }));
}

export const FAILURE_KINDS: { kind: FailureKind; label: string }[] = [
  { kind: "domain_miss", label: "Domain misses" },
  { kind: "principle_miss", label: "Principle misses" },
  { kind: "false_injection", label: "False injections" },
  { kind: "trap", label: "Traps" },
];

/** Failures by kind, in FAILURE_KINDS order; kinds without failures are left out. */
export function groupFailures(
  failures: readonly EvalFailure[],
): { kind: FailureKind; label: string; failures: EvalFailure[] }[] {
  return FAILURE_KINDS.map(({ kind, label }) => ({
    kind,
    label,
    failures: failures.filter((f) => f.kind === kind),
  })).filter((g) => g.failures.length > 0);
}

/** The Retrieval playground, run on `prompt` as it loads. */
export function playgroundHref(prompt: string): string {
  return `/retrieval?prompt=${encodeURIComponent(prompt)}`;
}
