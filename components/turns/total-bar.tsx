import { formatScore } from "./format";

/** A turn's normalized total as a bar, with its weighted total over the most it could have been. */
export function TotalBar({ normalized, weighted, max }: { normalized: number; weighted: number; max: number }) {
  const percent = Math.round(Math.min(Math.max(normalized, 0), 1) * 100);
  const tone = normalized >= 0.9 ? "bg-emerald-500" : normalized >= 0.7 ? "bg-indigo-500" : normalized >= 0.5 ? "bg-amber-500" : "bg-red-500";
  return (
    <span className="flex items-center gap-2 whitespace-nowrap" title={`normalized ${formatScore(normalized)}`}>
      <span aria-hidden="true" className="block h-2 w-24 overflow-hidden rounded bg-slate-100">
        <span className={`block h-2 rounded ${tone}`} style={{ width: `${percent}%` }} />
      </span>
      <span className="tabular-nums text-xs text-slate-700">
        {formatScore(weighted)} / {formatScore(max)}
      </span>
    </span>
  );
}
