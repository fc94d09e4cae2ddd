import type { z } from "zod";
import type { TurnFilters } from "@/lib/schemas/turn-rows";
import { dayRange, turnFiltersSchema } from "@/lib/schemas/turns";

/** The Turns table's filters as parsed from the URL (the cursor is the table's business, not the URL's). */
export type TurnQuery = Omit<z.output<typeof turnFiltersSchema>, "cursor">;
export type SearchParams = Record<string, string | string[] | undefined>;

const KEYS = ["session", "agent", "from", "to", "min", "max", "principle", "below"] as const;

/**
 * Reads the filters from URL search params with the API's schema. Empty fields (a
 * submitted form leaves them) are dropped; a field the schema refuses is dropped and
 * reported, so a bad link still shows a table.
 */
export function parseTurnQuery(params: SearchParams): {
  query: TurnQuery;
  problems: { field: string; message: string }[];
} {
  const raw: Record<string, string> = {};
  for (const key of KEYS) {
    const value = params[key];
    const text = (Array.isArray(value) ? value[0] : value)?.trim();
    if (text) raw[key] = text;
  }
  const first = turnFiltersSchema.safeParse(raw);
  if (first.success) return { query: withoutCursor(first.data), problems: [] };
  const problems = first.error.issues.map((i) => ({
    field: String(i.path[0] ?? ""),
    message: i.message,
  }));
  for (const p of problems) delete raw[p.field];
  const second = turnFiltersSchema.safeParse(raw);
  return { query: second.success ? withoutCursor(second.data) : {}, problems };
}

function withoutCursor({
  cursor: _cursor,
  ...query
}: z.output<typeof turnFiltersSchema>): TurnQuery {
  return query;
}

/** The query string of `GET /api/v1/turns` (and of /turns) for these filters, keys in a stable order. */
export function turnQueryString(query: TurnQuery, cursor?: string | null): string {
  const params = new URLSearchParams();
  for (const key of KEYS) {
    const value = query[key];
    if (value !== undefined) params.set(key, String(value));
  }
  if (cursor) params.set("cursor", cursor);
  return params.toString();
}

/** The repository's filters for a query; `to` is inclusive of its whole (UTC) day, as in `GET /api/v1/turns`. */
export function toTurnFilters(query: TurnQuery): TurnFilters {
  return {
    sessionId: query.session,
    agent: query.agent,
    ...dayRange(query),
    minTotal: query.min,
    maxTotal: query.max,
    principle: query.principle,
    below: query.below,
  };
}
