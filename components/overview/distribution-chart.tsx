"use client";
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from "recharts";

export type Bucket = { from: number; to: number; turns: number };

/** How many turns fall in each tenth of the normalized total. */
export function DistributionChart({ buckets }: { buckets: Bucket[] }) {
  const data = buckets.map((b) => ({
    label: `${b.from.toFixed(1)}–${b.to.toFixed(1)}`,
    turns: b.turns,
  }));
  return (
    <div
      data-testid="distribution-chart"
      role="img"
      aria-label={`Turns per normalized total: ${data.map((d) => `${d.label} ${d.turns}`).join(", ")}`}
    >
      <BarChart
        responsive
        data={data}
        style={{ width: "100%", height: 240 }}
        margin={{ top: 8, right: 8, bottom: 8, left: -16 }}
      >
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="label" tick={{ fontSize: 10 }} interval={0} />
        <YAxis allowDecimals={false} tick={{ fontSize: 11 }} />
        <Tooltip />
        <Bar dataKey="turns" name="turns" fill="#6366f1" isAnimationActive={false} />
      </BarChart>
    </div>
  );
}
