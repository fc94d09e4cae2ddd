"use client";
import {
  Bar,
  CartesianGrid,
  ComposedChart,
  LabelList,
  Legend,
  Line,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { formatCount, formatUnit } from "@/lib/format";
import type { DailyTrust } from "./types";

/** Up to this many days, each trust point carries its value as a label. */
const LABELLED_DAYS = 10;

/**
 * Per day the principle was credited: that day's smoothed trust (line and points, left
 * axis, 0..1) and how many sessions credited it (bars, right axis, labelled "uses").
 * One day is one labelled point over one bar, not an empty chart.
 */
export function TrustChart({ days }: { days: DailyTrust[] }) {
  if (days.length === 0)
    return <p className="text-sm text-slate-500">Not credited in the last 90 days.</p>;
  const maxUses = Math.max(...days.map((d) => d.uses));
  return (
    <div
      data-testid="trust-chart"
      role="img"
      aria-label={`Smoothed trust and uses per day: ${days.map((d) => `${d.day} ${formatUnit(d.smoothed)} (${formatCount(d.uses)} uses)`).join(", ")}`}
    >
      <ComposedChart
        responsive
        data={days}
        style={{ width: "100%", height: 260 }}
        margin={{ top: 20, right: 8, bottom: 8, left: 0 }}
      >
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis
          dataKey="day"
          tick={{ fontSize: 11 }}
          tickFormatter={(day: string) => day.slice(5)}
          minTickGap={16}
        />
        <YAxis
          yAxisId="trust"
          domain={[0, 1]}
          ticks={[0, 0.25, 0.5, 0.75, 1]}
          tick={{ fontSize: 11 }}
          tickFormatter={(v: number) => v.toFixed(2)}
          label={{
            value: "smoothed trust",
            angle: -90,
            position: "insideLeft",
            style: { fontSize: 11, fill: "#64748b", textAnchor: "middle" },
          }}
        />
        <YAxis
          yAxisId="uses"
          orientation="right"
          allowDecimals={false}
          domain={[0, Math.max(1, maxUses)]}
          tick={{ fontSize: 11 }}
          label={{
            value: "uses (sessions)",
            angle: 90,
            position: "insideRight",
            style: { fontSize: 11, fill: "#64748b", textAnchor: "middle" },
          }}
        />
        <Tooltip
          formatter={(value, name) => [
            typeof value === "number"
              ? name === "uses"
                ? formatCount(value)
                : formatUnit(value)
              : value,
            name,
          ]}
        />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Bar
          yAxisId="uses"
          dataKey="uses"
          name="uses"
          fill="#c7d2fe"
          maxBarSize={48}
          isAnimationActive={false}
        />
        <Line
          yAxisId="trust"
          type="linear"
          dataKey="smoothed"
          name="smoothed trust"
          stroke="#4f46e5"
          strokeWidth={2}
          dot={{ r: 4 }}
          isAnimationActive={false}
        >
          {days.length <= LABELLED_DAYS ? (
            <LabelList
              dataKey="smoothed"
              position="top"
              fontSize={11}
              fill="#334155"
              formatter={(v: unknown) => (typeof v === "number" ? formatUnit(v) : "")}
            />
          ) : null}
        </Line>
      </ComposedChart>
    </div>
  );
}
