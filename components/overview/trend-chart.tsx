"use client";
import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import type { DayPoint } from "./trend";

/** The average normalized total per day; days without turns are gaps. */
export function TrendChart({ points }: { points: DayPoint[] }) {
  return (
    <div data-testid="trend-chart" role="img" aria-label="Average normalized total per day over the last 30 days">
      <LineChart responsive data={points} style={{ width: "100%", height: 240 }} margin={{ top: 8, right: 16, bottom: 8, left: -16 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="day" tick={{ fontSize: 11 }} tickFormatter={(day: string) => day.slice(5)} minTickGap={16} />
        <YAxis domain={[0, 1]} ticks={[0, 0.25, 0.5, 0.75, 1]} tick={{ fontSize: 11 }} />
        <Tooltip formatter={(value) => [value, "average"]} />
        <Line type="monotone" dataKey="avgNormalized" name="average" stroke="#4f46e5" strokeWidth={2} dot={{ r: 3 }} connectNulls={false} isAnimationActive={false} />
      </LineChart>
    </div>
  );
}
