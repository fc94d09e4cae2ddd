/**
 * One number format for the dashboard. Values on a 0..1 scale (scores, normalized totals,
 * trust ratios, confidences) always show three decimals, so that columns line up and
 * 0.5, 0.685 and 1 never appear side by side; weighted totals show two. Pure: used by
 * server pages and client components alike.
 */

/** A 0..1 value (score, normalized total, trust, confidence): three decimals, "0.685", "1.000". */
export function formatUnit(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "–" : value.toFixed(3);
}

/** A weighted total or a weight: two decimals, "8.50". */
export function formatWeighted(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "–" : value.toFixed(2);
}

/** A whole count with thousands separators: "12,345". */
export function formatCount(value: number): string {
  return value.toLocaleString("en-US");
}
