"use client";
import { Bar, CartesianGrid, ComposedChart, Legend, Line, Tooltip, XAxis, YAxis } from "recharts";
import type { DailyTrust } from "./types";

/** Per day: how often the principle was credited (bars, right axis) and that day's smoothed trust (line, left axis). */
export function TrustChart({ days }: { days: DailyTrust[] }) {
  if (days.length === 0) return <p className="text-sm text-slate-500">Not credited in the last 90 days.</p>;
  return (
    <div data-testid="trust-chart" role="img" aria-label={`Smoothed trust and uses per day: ${days.map((d) => `${d.day} ${d.smoothed.toFixed(2)} (${d.uses})`).join(", ")}`}>
      <ComposedChart responsive data={days} style={{ width: "100%", height: 240 }} margin={{ top: 8, right: 0, bottom: 8, left: -16 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="day" tick={{ fontSize: 11 }} tickFormatter={(day: string) => day.slice(5)} minTickGap={16} />
        <YAxis yAxisId="trust" domain={[0, 1]} ticks={[0, 0.25, 0.5, 0.75, 1]} tick={{ fontSize: 11 }} />
        <YAxis yAxisId="uses" orientation="right" allowDecimals={false} tick={{ fontSize: 11 }} />
        <Tooltip />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Bar yAxisId="uses" dataKey="uses" name="uses" fill="#c7d2fe" isAnimationActive={false} />
        <Line yAxisId="trust" type="monotone" dataKey="smoothed" name="smoothed trust" stroke="#4f46e5" strokeWidth={2} dot={{ r: 3 }} isAnimationActive={false} />
      </ComposedChart>
    </div>
  );
}
