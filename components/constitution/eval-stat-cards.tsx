import { Badge } from "@/components/ui/primitives";
import type { EvalMetrics, ThresholdResult } from "@/lib/constitution";
import { metricRows } from "./eval-metrics";

/** A version's eval metrics as cards: value, threshold met or missed, and the counts behind it. */
export function EvalStatCards({
  metrics,
  thresholds,
}: {
  metrics: EvalMetrics;
  thresholds: ThresholdResult[];
}) {
  return (
    <ul aria-label="Eval metrics" className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
      {metricRows(metrics, thresholds).map((row) => (
        <li
          key={row.name}
          data-testid={`metric-${row.name}`}
          aria-label={`${row.label}: ${row.value}${row.threshold ? `, threshold ${row.threshold.text} ${row.threshold.ok ? "met" : "missed"}` : ""}`}
          className={`rounded-md border p-3 ${row.threshold && !row.threshold.ok ? "border-red-200 bg-red-50/40" : "border-slate-200"}`}
        >
          <p className="text-xs font-medium uppercase tracking-wide text-slate-500">{row.label}</p>
          <p className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">{row.value}</p>
          <p className="mt-1 flex items-center gap-2 text-xs">
            {row.threshold ? (
              <Badge tone={row.threshold.ok ? "green" : "red"}>
                {row.threshold.ok ? "met" : "missed"} {row.threshold.text}
              </Badge>
            ) : (
              <span className="text-slate-400">no threshold</span>
            )}
          </p>
          <p className="mt-1 text-xs text-slate-600">{row.counts}</p>
        </li>
      ))}
      <li data-testid="metric-latency" className="rounded-md border border-slate-200 p-3">
        <p className="text-xs font-medium uppercase tracking-wide text-slate-500">
          latency p50 / p99
        </p>
        <p className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">
          {metrics.latency_ms.p50} / {metrics.latency_ms.p99} ms
        </p>
        <p className="mt-1 text-xs text-slate-600">
          per prompt, lexical path, over {metrics.cases} prompts
        </p>
      </li>
    </ul>
  );
}
