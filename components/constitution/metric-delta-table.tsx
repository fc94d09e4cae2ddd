import type { DeltaRow } from "./eval-metrics";

const toneClass: Record<DeltaRow["tone"], string> = {
  red: "bg-red-50 text-red-800",
  amber: "bg-amber-50 text-amber-900",
  green: "bg-emerald-50 text-emerald-800",
  slate: "text-slate-500",
};

/** Eval metrics side by side (before and after a change, or keywords alone and learned), each change toned. */
export function MetricDeltaTable({
  rows,
  label,
  before = "Before",
  after = "After",
  testIdPrefix = "delta",
}: {
  rows: readonly DeltaRow[];
  label: string;
  before?: string;
  after?: string;
  testIdPrefix?: string;
}) {
  return (
    <table aria-label={label} className="min-w-full text-sm">
      <thead>
        <tr className="text-left text-xs uppercase tracking-wide text-slate-500">
          <th className="py-1 pr-3 font-semibold">Metric</th>
          <th className="py-1 pr-3 font-semibold">{before}</th>
          <th className="py-1 pr-3 font-semibold">{after}</th>
          <th className="py-1 font-semibold">Change</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.name} data-testid={`${testIdPrefix}-${r.name}`} className={toneClass[r.tone]}>
            <td className="py-1 pr-3 pl-1">{r.label}</td>
            <td className="py-1 pr-3 tabular-nums">{r.before}</td>
            <td className="py-1 pr-3 tabular-nums">{r.after}</td>
            <td className="py-1 tabular-nums">
              {r.change === "same" ? "same" : `${r.diff} (${r.change})`}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
