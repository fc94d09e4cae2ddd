import {
  forbidMatches,
  THRESHOLDS,
  type EvalCase,
  type EvalSet,
  type ThresholdName,
  type Thresholds,
} from "./eval-schema";

/** What one retrieval gave for an eval prompt: detected domains best first, injected principles, time taken. */
export type Retrieved = {
  domains: string[];
  principles: { id: string; domain: string | null; chars: number }[];
  ms: number;
};

/** One case's outcome. Booleans are null where the case does not measure that. */
export type CaseResult = {
  prompt: string;
  file: string;
  line: number;
  expected_domains: string[];
  domains: string[];
  principles: string[];
  chars: number;
  ms: number;
  domain_hit_at_1: boolean | null;
  domain_hit_at_3: boolean | null;
  principle_hit: boolean | null;
  /** Overlay principles injected on a prompt labelled "no overlay applies". */
  false_injections: string[];
  /** Whether a forbidden principle was injected (null when the case forbids none), and which. */
  trap: boolean | null;
  trapped: string[];
};

export type EvalMetrics = {
  cases: number;
  domain_cases: number;
  domain_recall_at_1: number;
  domain_recall_at_3: number;
  principle_cases: number;
  principle_hit_rate: number;
  benign_cases: number;
  false_injection_rate: number;
  trap_cases: number;
  trap_rate: number;
  mean_principles: number;
  mean_chars: number;
  latency_ms: { p50: number; p99: number };
};

export type ThresholdResult = {
  name: ThresholdName;
  limit: number;
  direction: "min" | "max";
  value: number;
  ok: boolean;
};
export type FailureKind = "domain_miss" | "principle_miss" | "false_injection" | "trap";
export type EvalFailure = {
  kind: FailureKind;
  prompt: string;
  file: string;
  line: number;
  message: string;
};
export type EvalReport = {
  metrics: EvalMetrics;
  thresholds: ThresholdResult[];
  passed: boolean;
  failures: EvalFailure[];
  cases: CaseResult[];
};

const RECALL_DEPTH = 3;
const round4 = (n: number) => Math.round(n * 10_000) / 10_000;
const share = (n: number, of: number) => (of === 0 ? 1 : round4(n / of));
const rate = (n: number, of: number) => (of === 0 ? 0 : round4(n / of));

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Scores one case against what retrieval gave for its prompt. */
export function scoreCase(c: EvalCase, got: Retrieved): CaseResult {
  const ids = got.principles.map((p) => p.id);
  const trapped = ids.filter((id) => c.forbid.some((entry) => forbidMatches(entry, id)));
  const expected = new Set(c.domains);
  const hasDomains = c.domains.length > 0;
  return {
    prompt: c.prompt,
    file: c.file,
    line: c.line,
    expected_domains: c.domains,
    domains: got.domains,
    principles: ids,
    chars: got.principles.reduce((n, p) => n + p.chars, 0),
    ms: got.ms,
    domain_hit_at_1: hasDomains ? expected.has(got.domains[0] ?? "") : null,
    domain_hit_at_3: hasDomains
      ? got.domains.slice(0, RECALL_DEPTH).some((d) => expected.has(d))
      : null,
    principle_hit: c.expect.length ? c.expect.some((id) => ids.includes(id)) : null,
    false_injections: hasDomains
      ? []
      : got.principles.filter((p) => p.domain !== null).map((p) => p.id),
    trap: c.forbid.length ? trapped.length > 0 : null,
    trapped,
  };
}

/** The eval's metrics over case results (see docs/evals.md for each definition). */
export function metricsOf(results: readonly CaseResult[]): EvalMetrics {
  const count = (f: (r: CaseResult) => boolean) => results.filter(f).length;
  const domainCases = count((r) => r.domain_hit_at_1 !== null);
  const principleCases = count((r) => r.principle_hit !== null);
  const benign = count((r) => r.expected_domains.length === 0);
  const trapCases = count((r) => r.trap !== null);
  const latencies = results.map((r) => r.ms).sort((a, b) => a - b);
  return {
    cases: results.length,
    domain_cases: domainCases,
    domain_recall_at_1: share(
      count((r) => r.domain_hit_at_1 === true),
      domainCases,
    ),
    domain_recall_at_3: share(
      count((r) => r.domain_hit_at_3 === true),
      domainCases,
    ),
    principle_cases: principleCases,
    principle_hit_rate: share(
      count((r) => r.principle_hit === true),
      principleCases,
    ),
    benign_cases: benign,
    false_injection_rate: rate(
      count((r) => r.false_injections.length > 0),
      benign,
    ),
    trap_cases: trapCases,
    trap_rate: rate(
      count((r) => r.trap === true),
      trapCases,
    ),
    mean_principles: results.length
      ? round4(results.reduce((n, r) => n + r.principles.length, 0) / results.length)
      : 0,
    mean_chars: results.length
      ? Math.round(results.reduce((n, r) => n + r.chars, 0) / results.length)
      : 0,
    latency_ms: { p50: round4(percentile(latencies, 50)), p99: round4(percentile(latencies, 99)) },
  };
}

/** Each threshold the set names, with the value reached and whether it was met. */
export function checkThresholds(metrics: EvalMetrics, thresholds: Thresholds): ThresholdResult[] {
  return (Object.keys(THRESHOLDS) as ThresholdName[]).flatMap((name) => {
    const limit = thresholds[name];
    if (limit === undefined) return [];
    const direction = THRESHOLDS[name];
    const value = metrics[name];
    return [
      { name, limit, direction, value, ok: direction === "min" ? value >= limit : value <= limit },
    ];
  });
}

function failuresOf(c: EvalCase, r: CaseResult): EvalFailure[] {
  const at = { prompt: c.prompt, file: c.file, line: c.line };
  const out: EvalFailure[] = [];
  const got = r.domains.length ? r.domains.join(", ") : "none";
  if (r.domain_hit_at_3 === false)
    out.push({
      ...at,
      kind: "domain_miss",
      message: `expected domain ${c.domains.join(" or ")}, detected ${got}`,
    });
  if (r.principle_hit === false)
    out.push({
      ...at,
      kind: "principle_miss",
      message: `expected one of ${c.expect.join(", ")}, injected ${r.principles.join(", ") || "none"}`,
    });
  if (r.false_injections.length)
    out.push({
      ...at,
      kind: "false_injection",
      message: `no overlay applies, but injected ${r.false_injections.join(", ")} (domains ${got})`,
    });
  if (r.trapped.length)
    out.push({ ...at, kind: "trap", message: `injected forbidden ${r.trapped.join(", ")}` });
  return out;
}

/**
 * Runs an eval set through a retrieval function, one prompt at a time (latency is
 * measured per prompt by the caller's `retrieve`), and reports metrics, thresholds
 * and every failure. `passed` is false when any threshold is missed.
 */
export async function runEval(
  set: EvalSet,
  retrieve: (prompt: string) => Retrieved | Promise<Retrieved>,
): Promise<EvalReport> {
  const cases: CaseResult[] = [];
  const failures: EvalFailure[] = [];
  for (const c of set.cases) {
    const result = scoreCase(c, await retrieve(c.prompt));
    cases.push(result);
    failures.push(...failuresOf(c, result));
  }
  const metrics = metricsOf(cases);
  const thresholds = checkThresholds(metrics, set.thresholds);
  return { metrics, thresholds, passed: thresholds.every((t) => t.ok), failures, cases };
}
