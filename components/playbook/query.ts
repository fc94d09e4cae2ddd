import { normalizeText } from "@/lib/schemas/text";

/** The status filter of the Playbook page; "" (the default) shows what agents may still get: active and proposed. */
export const STATUS_FILTERS = [
  { value: "", label: "Active and proposed" },
  { value: "active", label: "Active" },
  { value: "proposed", label: "Proposed for pruning" },
  { value: "pruned", label: "Pruned" },
  { value: "all", label: "All" },
] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number]["value"];
export type PlaybookQuery = { q: string; status: StatusFilter };
export type SearchParams = Record<string, string | string[] | undefined>;

const first = (value: string | string[] | undefined) =>
  (Array.isArray(value) ? value[0] : value)?.trim() ?? "";

/**
 * Reads `?q=` and `?status=` from the URL; an unknown status falls back to the default
 * rather than failing the page. The search text follows the ingest text rule (a NUL
 * becomes U+FFFD, as it was stored), so PostgreSQL can compare it.
 */
export function parsePlaybookQuery(params: SearchParams): PlaybookQuery {
  const status = first(params.status);
  const known = STATUS_FILTERS.find((s) => s.value === status);
  return { q: normalizeText(first(params.q).slice(0, 200)), status: known ? known.value : "" };
}

/** The store's status argument for a filter (the default is narrowed after listing). */
export function storeStatus(status: StatusFilter): "active" | "proposed" | "pruned" | "all" {
  return status === "" ? "all" : status;
}
