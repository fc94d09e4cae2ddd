"use client";
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from "recharts";
import type { Principle } from "@/lib/reward";

export type ScoreBar = { principle: Principle; engine: number; effective: number };

/**
 * The seven scores as bars: the engine's score, and beside it the effective score
 * when a reviewer overrode it. The score table below carries the same numbers as text.
 */
export function ScoreChart({ bars }: { bars: ScoreBar[] }) {
  const overridden = bars.some((b) => b.engine !== b.effective);
  return (
    <div data-testid="score-chart" role="img" aria-label={`Scores: ${bars.map((b) => `${b.principle} ${b.effective}`).join(", ")}`}>
      <BarChart responsive data={bars} style={{ width: "100%", height: 260 }} margin={{ top: 8, right: 8, bottom: 8, left: -16 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="principle" tick={{ fontSize: 11 }} interval={0} />
        <YAxis domain={[0, 1]} ticks={[0, 0.25, 0.5, 0.75, 1]} tick={{ fontSize: 11 }} />
        <Tooltip />
        {overridden ? <Legend wrapperStyle={{ fontSize: 12 }} /> : null}
        <Bar dataKey="engine" name="engine score" fill="#a5b4fc" isAnimationActive={false} />
        {overridden ? <Bar dataKey="effective" name="effective (overridden)" fill="#f59e0b" isAnimationActive={false} /> : null}
      </BarChart>
    </div>
  );
}
