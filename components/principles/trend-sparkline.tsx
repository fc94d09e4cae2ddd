"use client";
import { Line, LineChart, YAxis } from "recharts";
import { formatUnit } from "@/lib/format";
import type { TrustRow } from "./rows";

/** A tiny line of the daily smoothed trust (0..1); nothing when the principle was not used in the period. */
export function TrendSparkline({ points }: { points: TrustRow["trend"] }) {
  if (points.length === 0) return <span className="text-xs text-slate-300">—</span>;
  const label = `Smoothed trust per day: ${points.map((p) => `${p.day} ${formatUnit(p.smoothed)}`).join(", ")}`;
  return (
    <span
      role="img"
      aria-label={label}
      title={label}
      className="block"
      data-testid="trend-sparkline"
    >
      <LineChart
        width={96}
        height={28}
        data={points}
        margin={{ top: 3, right: 3, bottom: 3, left: 3 }}
      >
        <YAxis hide domain={[0, 1]} />
        <Line
          type="monotone"
          dataKey="smoothed"
          stroke="#4f46e5"
          strokeWidth={1.5}
          dot={points.length === 1 ? { r: 2 } : false}
          isAnimationActive={false}
        />
      </LineChart>
    </span>
  );
}
