/** One principle as the Principles table shows it: counters, trust, and the daily smoothed trust. */
export type TrustRow = {
  id: string;
  title: string;
  level: string | null;
  domain: string | null;
  inConstitution: boolean;
  useCount: number;
  successCount: number;
  raw: number | null;
  smoothed: number;
  lowerBound: number;
  trend: { day: string; smoothed: number; uses: number }[];
};

export const SORT_KEYS = [
  "id",
  "title",
  "level",
  "domain",
  "useCount",
  "successCount",
  "raw",
  "smoothed",
  "lowerBound",
] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type Sort = { key: SortKey; dir: "asc" | "desc" };

/** Principles without a domain are core principles. */
export const CORE = "core";

/** The default order: most trustworthy first (lower bound), then the most used. */
export const DEFAULT_SORT: Sort = { key: "lowerBound", dir: "desc" };

const TEXT_KEYS = new Set<SortKey>(["id", "title", "level", "domain"]);

/** A first click sorts text A to Z and numbers high to low; a second click on the same column reverses. */
export function nextSort(current: Sort, key: SortKey): Sort {
  if (current.key === key) return { key, dir: current.dir === "asc" ? "desc" : "asc" };
  return { key, dir: TEXT_KEYS.has(key) ? "asc" : "desc" };
}

function value(row: TrustRow, key: SortKey): string | number | null {
  return key === "domain" ? (row.domain ?? CORE) : row[key];
}

function compare(a: string | number | null, b: string | number | null): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b));
}

/**
 * Rows in the chosen order. Missing values (raw trust of an unused principle) go last
 * in either direction; ties fall back to lower bound, then use count (both descending), then id.
 */
export function sortRows(rows: readonly TrustRow[], sort: Sort): TrustRow[] {
  const sign = sort.dir === "asc" ? 1 : -1;
  return [...rows].sort((x, y) => {
    const a = value(x, sort.key);
    const b = value(y, sort.key);
    if (a === null || b === null) {
      if (a !== b) return a === null ? 1 : -1;
    } else {
      const primary = compare(a, b) * sign;
      if (primary !== 0) return primary;
    }
    return y.lowerBound - x.lowerBound || y.useCount - x.useCount || x.id.localeCompare(y.id);
  });
}

export type TrustFilter = { domain: string; level: string; text: string };

/** Rows of a domain ("core" for none), a level, and whose id or title contains the text (case-insensitive); empty fields match all. */
export function filterRows(rows: readonly TrustRow[], filter: TrustFilter): TrustRow[] {
  const text = filter.text.trim().toLowerCase();
  return rows.filter(
    (r) =>
      (!filter.domain || (r.domain ?? CORE) === filter.domain) &&
      (!filter.level || r.level === filter.level) &&
      (!text || r.id.toLowerCase().includes(text) || r.title.toLowerCase().includes(text)),
  );
}
