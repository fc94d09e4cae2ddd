"use client";
import { CartesianGrid, LabelList, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import { formatUnit } from "@/lib/format";
import type { DayPoint } from "./trend";

/** Up to this many days with turns, each point carries its value as a label; more would overlap on a 30-day axis (the tooltip has them). */
const LABELLED_DAYS = 3;

/**
 * The average normalized total per day, on a fixed 0..1 scale over the whole window.
 * Every day with turns is a visible point (a single day is one labelled dot, not an
 * empty chart); the line joins them across days without turns, which have no point.
 */
export function TrendChart({ points }: { points: DayPoint[] }) {
  const withTurns = points.filter((p) => p.avgNormalized !== null);
  const summary = withTurns
    .map((p) => `${p.day} ${formatUnit(p.avgNormalized)} (${p.turns} turns)`)
    .join(", ");
  return (
    <div
      data-testid="trend-chart"
      data-days={withTurns.length}
      role="img"
      aria-label={`Average normalized total per day over the last ${points.length} days: ${summary || "no turns"}`}
    >
      <LineChart
        responsive
        data={points}
        style={{ width: "100%", height: 240 }}
        margin={{ top: 20, right: 16, bottom: 8, left: -16 }}
      >
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis
          dataKey="day"
          tick={{ fontSize: 11 }}
          tickFormatter={(day: string) => day.slice(5)}
          minTickGap={16}
        />
        <YAxis
          domain={[0, 1]}
          ticks={[0, 0.25, 0.5, 0.75, 1]}
          tick={{ fontSize: 11 }}
          tickFormatter={(v: number) => v.toFixed(2)}
        />
        <Tooltip
          formatter={(value, _name, item) => [
            `${typeof value === "number" ? formatUnit(value) : value} (${(item.payload as DayPoint).turns} turns)`,
            "average",
          ]}
        />
        <Line
          type="linear"
          dataKey="avgNormalized"
          name="average"
          stroke="#4f46e5"
          strokeWidth={2}
          dot={{ r: 4 }}
          activeDot={{ r: 6 }}
          connectNulls
          isAnimationActive={false}
        >
          {withTurns.length <= LABELLED_DAYS ? (
            <LabelList
              dataKey="avgNormalized"
              position="top"
              fontSize={11}
              fill="#334155"
              formatter={(v: unknown) => (typeof v === "number" ? formatUnit(v) : "")}
            />
          ) : null}
        </Line>
      </LineChart>
    </div>
  );
}
