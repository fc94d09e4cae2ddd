import type { CaseResult, EvalMetrics, EvalReport } from "./eval";

/**
 * What a change to the constitution would do, before it is saved: the eval set run
 * under both versions (which cases gain or lose their expected principle, which start
 * injecting overlay principles on benign prompts or forbidden ones on traps), and a
 * replay of stored prompts (which principles each would gain or lose).
 */

export type CaseDelta = {
  prompt: string;
  file: string;
  line: number;
  before: string[];
  after: string[];
};
export type MetricDelta = { name: MetricName; before: number; after: number };
export type MetricName = Exclude<
  keyof EvalMetrics,
  "latency_ms" | "cases" | "domain_cases" | "principle_cases" | "benign_cases" | "trap_cases"
>;

export type EvalComparison = {
  metrics: MetricDelta[];
  passed: { before: boolean; after: boolean };
  gained_hits: CaseDelta[];
  lost_hits: CaseDelta[];
  new_false_injections: CaseDelta[];
  cleared_false_injections: CaseDelta[];
  new_traps: CaseDelta[];
  cleared_traps: CaseDelta[];
  /** Cases whose injected principles changed at all. */
  changed_cases: number;
};

/** Each compared metric as people read it, in the order reports list them (the CLI and the dashboard). */
export const METRIC_LABELS: Record<MetricName, string> = {
  domain_recall_at_1: "domain recall@1",
  domain_recall_at_3: "domain recall@3",
  principle_hit_rate: "principle hit rate",
  false_injection_rate: "false injection rate",
  trap_rate: "trap rate",
  mean_principles: "mean principles",
  mean_chars: "mean characters",
};
const METRICS = Object.keys(METRIC_LABELS) as MetricName[];

/** Compares two runs of the same eval set (cases are matched by prompt). */
export function compareEvals(before: EvalReport, after: EvalReport): EvalComparison {
  const earlier = new Map(before.cases.map((c) => [c.prompt, c]));
  const pairs = after.cases.flatMap((a) => {
    const b = earlier.get(a.prompt);
    return b ? [{ b, a }] : [];
  });
  const delta = (b: CaseResult, a: CaseResult, pick: (r: CaseResult) => string[]): CaseDelta => ({
    prompt: a.prompt,
    file: a.file,
    line: a.line,
    before: pick(b),
    after: pick(a),
  });
  const where = (
    test: (b: CaseResult, a: CaseResult) => boolean,
    pick: (r: CaseResult) => string[] = (r) => r.principles,
  ) => pairs.filter(({ b, a }) => test(b, a)).map(({ b, a }) => delta(b, a, pick));
  return {
    metrics: METRICS.map((name) => ({
      name,
      before: before.metrics[name],
      after: after.metrics[name],
    })),
    passed: { before: before.passed, after: after.passed },
    gained_hits: where((b, a) => b.principle_hit === false && a.principle_hit === true),
    lost_hits: where((b, a) => b.principle_hit === true && a.principle_hit === false),
    new_false_injections: where(
      (b, a) => b.false_injections.length === 0 && a.false_injections.length > 0,
      (r) => r.false_injections,
    ),
    cleared_false_injections: where(
      (b, a) => b.false_injections.length > 0 && a.false_injections.length === 0,
      (r) => r.false_injections,
    ),
    new_traps: where(
      (b, a) => b.trap === false && a.trap === true,
      (r) => r.trapped,
    ),
    cleared_traps: where(
      (b, a) => b.trap === true && a.trap === false,
      (r) => r.trapped,
    ),
    changed_cases: pairs.filter(({ b, a }) => !sameSet(b.principles, a.principles)).length,
  };
}

export type ReplayExample = { prompt: string; gained: string[]; lost: string[] };
export type ReplayImpact = {
  prompts: number;
  changed: number;
  /** Per principle, how many replayed prompts would newly get it (most first). */
  gained: { id: string; prompts: number }[];
  lost: { id: string; prompts: number }[];
  examples: ReplayExample[];
};

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

function tally(counts: Map<string, number>): { id: string; prompts: number }[] {
  return [...counts]
    .map(([id, prompts]) => ({ id, prompts }))
    .sort((a, b) => b.prompts - a.prompts || a.id.localeCompare(b.id));
}

/**
 * Replays prompts under two versions: for each prompt, the principles it would gain
 * or lose. `examples` keeps the first `maxExamples` prompts that changed.
 */
export function replayImpact(
  prompts: readonly string[],
  before: (prompt: string) => readonly string[],
  after: (prompt: string) => readonly string[],
  maxExamples = 10,
): ReplayImpact {
  const gained = new Map<string, number>();
  const lost = new Map<string, number>();
  const examples: ReplayExample[] = [];
  let changed = 0;
  for (const prompt of prompts) {
    const b = new Set(before(prompt));
    const a = new Set(after(prompt));
    const plus = [...a].filter((id) => !b.has(id)).sort();
    const minus = [...b].filter((id) => !a.has(id)).sort();
    if (plus.length === 0 && minus.length === 0) continue;
    changed++;
    for (const id of plus) gained.set(id, (gained.get(id) ?? 0) + 1);
    for (const id of minus) lost.set(id, (lost.get(id) ?? 0) + 1);
    if (examples.length < maxExamples) examples.push({ prompt, gained: plus, lost: minus });
  }
  return { prompts: prompts.length, changed, gained: tally(gained), lost: tally(lost), examples };
}
