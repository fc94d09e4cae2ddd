"use client";
import Link from "next/link";
import { useMemo, useState } from "react";
import { LevelBadge } from "@/components/constitution/level-badge";
import { formatCount, formatUnit, formatWeighted } from "@/lib/format";
import { Td } from "@/components/ui/primitives";
import {
  CORE,
  DEFAULT_SORT,
  filterRows,
  nextSort,
  sortRows,
  type Sort,
  type SortKey,
  type TrustRow,
  type TrustFilter,
} from "./rows";
import { SortHeader } from "./sort-header";
import { TrendSparkline } from "./trend-sparkline";
import { TrustFilters } from "./trust-filters";

const COLUMNS: { key: SortKey; label: string; numeric?: boolean }[] = [
  { key: "id", label: "Id" },
  { key: "title", label: "Title" },
  { key: "level", label: "Level" },
  { key: "domain", label: "Domain" },
  { key: "useCount", label: "Uses", numeric: true },
  { key: "successCount", label: "Successes", numeric: true },
  { key: "raw", label: "Raw", numeric: true },
  { key: "smoothed", label: "Smoothed", numeric: true },
  { key: "lowerBound", label: "Lower bound", numeric: true },
];

/** Every principle with its trust; sorted by clicking a column header and filtered by domain, level and text, in the browser. */
export function TrustTable({ rows, domains }: { rows: TrustRow[]; domains: string[] }) {
  const [sort, setSort] = useState<Sort>(DEFAULT_SORT);
  const [filter, setFilter] = useState<TrustFilter>({ domain: "", level: "", text: "" });
  const shown = useMemo(() => sortRows(filterRows(rows, filter), sort), [rows, filter, sort]);
  const levels = useMemo(
    () => [...new Set(rows.flatMap((r) => (r.level ? [r.level] : [])))].sort(),
    [rows],
  );

  return (
    <div className="space-y-4">
      <TrustFilters filter={filter} domains={domains} levels={levels} onChange={setFilter} />
      <p className="text-xs text-slate-500" aria-live="polite">
        {shown.length} of {rows.length} principles
      </p>
      <div className="overflow-x-auto">
        <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="trust-table">
          <thead>
            <tr>
              {COLUMNS.map((c) => (
                <SortHeader
                  key={c.key}
                  label={c.label}
                  column={c.key}
                  numeric={c.numeric}
                  sort={sort}
                  onSort={(key) => setSort((s) => nextSort(s, key))}
                />
              ))}
              <th
                scope="col"
                className="px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-500"
              >
                Trend
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {shown.map((r) => (
              <tr
                key={r.id}
                data-testid={`trust-${r.id}`}
                data-use-count={r.useCount}
                className="hover:bg-slate-50"
              >
                <Td className="whitespace-nowrap font-mono text-xs">
                  <Link
                    href={`/principles/${encodeURIComponent(r.id)}`}
                    className="text-indigo-600 hover:underline"
                  >
                    {r.id}
                  </Link>
                </Td>
                <Td className={r.inConstitution ? "" : "italic text-slate-400"}>{r.title}</Td>
                <Td>
                  {r.level ? (
                    <LevelBadge level={r.level} />
                  ) : (
                    <span className="text-slate-400">—</span>
                  )}
                </Td>
                <Td className="text-xs">
                  {r.domain ?? <span className="text-slate-500">{CORE}</span>}
                </Td>
                <Td className="text-right tabular-nums">
                  <span data-testid="use-count">{formatCount(r.useCount)}</span>
                </Td>
                <Td className="text-right tabular-nums">{formatWeighted(r.successCount)}</Td>
                <Td className="text-right tabular-nums">{formatUnit(r.raw)}</Td>
                <Td className="text-right tabular-nums">{formatUnit(r.smoothed)}</Td>
                <Td className="text-right tabular-nums font-medium text-slate-900">
                  {formatUnit(r.lowerBound)}
                </Td>
                <Td>
                  <TrendSparkline points={r.trend} />
                </Td>
              </tr>
            ))}
          </tbody>
        </table>
        {shown.length === 0 ? (
          <p className="px-3 py-4 text-sm text-slate-500">No principle matches these filters.</p>
        ) : null}
      </div>
    </div>
  );
}
