"use client";
import { CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import {
  formatValue,
  MEAN_METRICS,
  METRIC_LABELS,
  RATE_METRICS,
  type TrendPoint,
} from "./eval-metrics";

const COLORS: Record<string, string> = {
  domain_recall_at_1: "#4f46e5",
  domain_recall_at_3: "#0ea5e9",
  principle_hit_rate: "#059669",
  false_injection_rate: "#d97706",
  trap_rate: "#dc2626",
  mean_principles: "#7c3aed",
  mean_chars: "#64748b",
};
const tick = { fontSize: 11 };
const axisLabel = (value: string, angle = 0) => ({
  value,
  angle,
  fontSize: 11,
  fill: "#64748b",
  position: angle ? ("insideLeft" as const) : ("insideBottom" as const),
  offset: angle ? 4 : -4,
});

/** The eval metrics over measured versions: rates on one chart (0..1), the means on a smaller one. With one measured version, its values alone. */
export function EvalTrendChart({ points }: { points: TrendPoint[] }) {
  if (points.length < 2) {
    const only = points[0];
    if (!only)
      return (
        <p className="text-sm text-slate-500">
          No version has eval cases yet, so there is no trend to show.
        </p>
      );
    return (
      <div data-testid="eval-trend" className="space-y-2 text-sm">
        <p className="text-slate-600">
          Only version {only.version} has eval results; a trend appears from the second version on.
        </p>
        <dl className="grid grid-cols-2 gap-x-6 gap-y-1 sm:grid-cols-4">
          {[...RATE_METRICS, ...MEAN_METRICS].map((name) => (
            <div key={name} className="flex justify-between gap-2">
              <dt className="text-slate-500">{METRIC_LABELS[name]}</dt>
              <dd className="tabular-nums text-slate-900">{formatValue(only[name])}</dd>
            </div>
          ))}
        </dl>
      </div>
    );
  }
  const first = points[0]!;
  const last = points.at(-1)!;
  const summary = RATE_METRICS.map(
    (name) => `${METRIC_LABELS[name]} ${formatValue(first[name])} to ${formatValue(last[name])}`,
  ).join(", ");
  return (
    <div data-testid="eval-trend" className="space-y-4">
      <div
        role="img"
        aria-label={`Eval rates from version ${first.version} to version ${last.version}: ${summary}`}
      >
        <LineChart
          responsive
          data={points}
          style={{ width: "100%", height: 260 }}
          margin={{ top: 8, right: 16, bottom: 16, left: 0 }}
        >
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis
            dataKey="version"
            tick={tick}
            padding={{ left: 16, right: 16 }}
            label={axisLabel("version")}
          />
          <YAxis
            domain={[0, 1]}
            ticks={[0, 0.25, 0.5, 0.75, 1]}
            tick={tick}
            width={64}
            label={{ ...axisLabel("share of prompts", -90), style: { textAnchor: "middle" } }}
          />
          <Tooltip labelFormatter={(v) => `version ${v}`} />
          <Legend verticalAlign="top" wrapperStyle={{ fontSize: 12 }} />
          {RATE_METRICS.map((name) => (
            <Line
              key={name}
              type="monotone"
              dataKey={name}
              name={METRIC_LABELS[name]}
              stroke={COLORS[name]}
              strokeWidth={2}
              dot={{ r: 2 }}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </div>
      <div
        role="img"
        aria-label={`Mean principles per prompt ${formatValue(first.mean_principles)} to ${formatValue(last.mean_principles)}, mean characters ${formatValue(first.mean_chars)} to ${formatValue(last.mean_chars)}`}
      >
        <LineChart
          responsive
          data={points}
          style={{ width: "100%", height: 180 }}
          margin={{ top: 8, right: 16, bottom: 16, left: 0 }}
        >
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis
            dataKey="version"
            tick={tick}
            padding={{ left: 16, right: 16 }}
            label={axisLabel("version")}
          />
          <YAxis
            yAxisId="principles"
            allowDecimals
            tick={tick}
            width={64}
            label={{ ...axisLabel("principles", -90), style: { textAnchor: "middle" } }}
          />
          <YAxis
            yAxisId="chars"
            orientation="right"
            allowDecimals={false}
            tick={tick}
            width={70}
            label={{
              ...axisLabel("characters", 90),
              position: "insideRight",
              offset: 4,
              style: { textAnchor: "middle" },
            }}
          />
          <Tooltip labelFormatter={(v) => `version ${v}`} />
          <Legend verticalAlign="top" wrapperStyle={{ fontSize: 12 }} />
          {MEAN_METRICS.map((name) => (
            <Line
              key={name}
              yAxisId={name === "mean_chars" ? "chars" : "principles"}
              type="monotone"
              dataKey={name}
              name={METRIC_LABELS[name]}
              stroke={COLORS[name]}
              strokeWidth={2}
              dot={{ r: 2 }}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </div>
    </div>
  );
}
