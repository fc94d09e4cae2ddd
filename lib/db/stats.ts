import { PRINCIPLES } from "@/lib/reward";
import type { Bucket, PrincipleAverage, TrendPoint } from "@/lib/schemas/stats-rows";
import { db } from "./client";
import { SCORE_COLUMN } from "./score-columns";

export type { Bucket, PrincipleAverage, TrendPoint };

/**
 * When a turn happened, as a UTC timestamp: when the agent stopped (else started). The
 * trend and the week's averages go by this, not by scored_at, which is when Charter
 * scored it: an import or a recompute would put every turn on that one day.
 */
const TURN_TIME_UTC = "(coalesce(t.stopped_at, t.started_at) AT TIME ZONE 'UTC')";

/** What the Overview shows: the daily score trend by when turns happened (UTC days, `days` ending today), the distribution of totals, and the weakest principles of the last 7 days. */
async function overview(days = 30) {
  const [trend, buckets, averages, counts] = await Promise.all([
    db().$queryRawUnsafe<{ day: Date; turns: bigint; avg: number }[]>(
      `SELECT date_trunc('day', ${TURN_TIME_UTC}) AS day, count(*) AS turns, avg(s.normalized_total)::float8 AS avg
       FROM turn_score s JOIN turn t ON t.id = s.turn_id
       WHERE ${TURN_TIME_UTC} >= date_trunc('day', now() AT TIME ZONE 'UTC') - make_interval(days => $1::int - 1) GROUP BY 1 ORDER BY 1`,
      days,
    ),
    db().$queryRawUnsafe<{ bucket: number; turns: bigint }[]>(
      `SELECT least(floor(normalized_total * 10), 9)::int AS bucket, count(*) AS turns FROM turn_score GROUP BY 1 ORDER BY 1`,
    ),
    db().$queryRawUnsafe<Record<string, number | bigint>[]>(
      `SELECT count(*) AS turns, ${PRINCIPLES.map((p) => `avg(s.${SCORE_COLUMN[p].sql})::float8 AS "${p}"`).join(", ")}
       FROM turn_score s JOIN turn t ON t.id = s.turn_id WHERE coalesce(t.stopped_at, t.started_at) >= now() - interval '7 days'`,
    ),
    db().$queryRawUnsafe<{ turns: bigint; sessions: bigint }[]>(
      `SELECT (SELECT count(*) FROM turn_score) AS turns, (SELECT count(*) FROM agent_session) AS sessions`,
    ),
  ]);
  const week = averages[0] ?? {};
  const weekTurns = Number(week.turns ?? 0);
  return {
    totals: { turns: Number(counts[0]?.turns ?? 0), sessions: Number(counts[0]?.sessions ?? 0) },
    trend: trend.map((t) => ({
      day: t.day.toISOString().slice(0, 10),
      turns: Number(t.turns),
      avgNormalized: Math.round(t.avg * 10_000) / 10_000,
    })) satisfies TrendPoint[],
    distribution: Array.from({ length: 10 }, (_, i) => ({
      from: i / 10,
      to: (i + 1) / 10,
      turns: Number(buckets.find((b) => b.bucket === i)?.turns ?? 0),
    })) satisfies Bucket[],
    weakest: (weekTurns === 0
      ? []
      : PRINCIPLES.map((p) => ({
          principle: p,
          average: Math.round(Number(week[p] ?? 1) * 10_000) / 10_000,
          turns: weekTurns,
        })).sort((a, b) => a.average - b.average)) satisfies PrincipleAverage[],
  };
}

/** Aggregates over scored turns for the Overview. */
export const stats = { overview } as const;
