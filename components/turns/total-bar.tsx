import { formatUnit, formatWeighted } from "@/lib/format";

/**
 * A turn's normalized total (0..1, the scale the filters use) as a bar and a number,
 * with the weighted total over the most it could have been beside it, smaller.
 */
export function TotalBar({
  normalized,
  weighted,
  max,
}: {
  normalized: number;
  weighted: number;
  max: number;
}) {
  const percent = Math.round(Math.min(Math.max(normalized, 0), 1) * 100);
  const tone =
    normalized >= 0.9
      ? "bg-emerald-500"
      : normalized >= 0.7
        ? "bg-indigo-500"
        : normalized >= 0.5
          ? "bg-amber-500"
          : "bg-red-500";
  return (
    <span
      className="flex items-center gap-2 whitespace-nowrap"
      data-testid="total-bar"
      data-normalized={normalized}
    >
      <span aria-hidden="true" className="block h-2 w-24 overflow-hidden rounded bg-slate-100">
        <span className={`block h-2 rounded ${tone}`} style={{ width: `${percent}%` }} />
      </span>
      <span className="text-sm font-medium tabular-nums text-slate-900">
        {formatUnit(normalized)}
      </span>
      <span
        className="text-xs tabular-nums text-slate-500"
        title="weighted total / the most it could have been"
      >
        {formatWeighted(weighted)} / {formatWeighted(max)}
      </span>
    </span>
  );
}
