import type { TurnListRow } from "@/lib/schemas/turn-rows";

/** A row of the Turns table as `GET /api/v1/turns` sends it (dates as ISO strings). */
export type TurnRow = Omit<TurnListRow, "scoredAt"> & { scoredAt: string };
export type TurnPage = { rows: TurnRow[]; next: string | null };

export function toTurnPage(page: { rows: TurnListRow[]; next: string | null }): TurnPage {
  return {
    rows: page.rows.map((r) => ({ ...r, scoredAt: r.scoredAt.toISOString() })),
    next: page.next,
  };
}

/** Newest first, as the API orders them: scored_at, then turn id, both descending. */
function newestFirst(a: TurnRow, b: TurnRow): number {
  if (a.scoredAt !== b.scoredAt) return a.scoredAt < b.scoredAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/**
 * The table's rows: the freshly fetched first page on top of every row loaded
 * before. A row in both keeps its fresh values (an override or a recompute may
 * have changed its totals); the order stays the API's.
 */
export function mergeRows(fresh: readonly TurnRow[], known: readonly TurnRow[]): TurnRow[] {
  const byId = new Map<string, TurnRow>();
  for (const row of known) byId.set(row.id, row);
  for (const row of fresh) byId.set(row.id, row);
  return [...byId.values()].sort(newestFirst);
}
