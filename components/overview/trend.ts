export type DayPoint = { day: string; turns: number; avgNormalized: number | null };

const DAY_MS = 86_400_000;

/**
 * One point per UTC day for the `days` days ending `today` (inclusive), so the
 * trend line's x axis is time, not "days that had turns"; a day without turns has
 * a null average (a gap in the line) and 0 turns.
 */
export function fillDays(
  trend: readonly { day: string; turns: number; avgNormalized: number }[],
  days: number,
  today: Date,
): DayPoint[] {
  const byDay = new Map(trend.map((t) => [t.day, t]));
  const end = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return Array.from({ length: days }, (_, i) => {
    const day = new Date(end - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10);
    const hit = byDay.get(day);
    return { day, turns: hit?.turns ?? 0, avgNormalized: hit ? hit.avgNormalized : null };
  });
}
