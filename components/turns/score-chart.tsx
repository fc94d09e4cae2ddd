"use client";
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from "recharts";
import { formatUnit } from "@/lib/format";
import type { Principle } from "@/lib/reward";

export type ScoreBar = { principle: Principle; engine: number; effective: number };

const ENGINE_FILL = "#a5b4fc";
const OVERRIDE_FILL = "#f59e0b";

/**
 * The seven scores as bars: the engine's score for every principle and, beside it,
 * the reviewer's score only for the principles a reviewer overrode, so the orange
 * marks exactly the overridden ones. The score table below carries the same numbers as text.
 */
export function ScoreChart({ bars }: { bars: ScoreBar[] }) {
  const data = bars.map((b) => ({
    principle: b.principle,
    engine: b.engine,
    override: b.engine === b.effective ? null : b.effective,
  }));
  const overridden = data.filter((d) => d.override !== null).map((d) => d.principle);
  const label = bars
    .map(
      (b) =>
        `${b.principle} ${formatUnit(b.effective)}${b.engine === b.effective ? "" : ` (overridden, engine ${formatUnit(b.engine)})`}`,
    )
    .join(", ");
  return (
    <div
      data-testid="score-chart"
      data-overridden={overridden.join(" ")}
      role="img"
      aria-label={`Scores: ${label}`}
    >
      <BarChart
        responsive
        data={data}
        style={{ width: "100%", height: 260 }}
        margin={{ top: 8, right: 8, bottom: 8, left: -16 }}
      >
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="principle" tick={{ fontSize: 11 }} interval={0} />
        <YAxis domain={[0, 1]} ticks={[0, 0.25, 0.5, 0.75, 1]} tick={{ fontSize: 11 }} />
        <Tooltip formatter={(value) => (typeof value === "number" ? formatUnit(value) : value)} />
        {overridden.length > 0 ? <Legend wrapperStyle={{ fontSize: 12 }} /> : null}
        <Bar dataKey="engine" name="engine score" fill={ENGINE_FILL} isAnimationActive={false} />
        {overridden.length > 0 ? (
          <Bar
            dataKey="override"
            name="reviewer's override (effective)"
            fill={OVERRIDE_FILL}
            isAnimationActive={false}
          />
        ) : null}
      </BarChart>
    </div>
  );
}
