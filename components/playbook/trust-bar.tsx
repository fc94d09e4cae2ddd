import { formatUnit } from "@/lib/format";

/** helpful / (helpful + harmful) as a bar and its value (three decimals); an em dash while the point is unrated. */
export function TrustBar({ trust }: { trust: number | undefined }) {
  if (trust === undefined) {
    return (
      <span className="text-slate-400" title="Not rated yet" data-testid="trust">
        —
      </span>
    );
  }
  const pct = Math.round(Math.min(Math.max(trust, 0), 1) * 100);
  return (
    <span
      className="flex items-center gap-2 whitespace-nowrap"
      title="helpful / (helpful + harmful)"
      data-testid="trust"
    >
      <span aria-hidden="true" className="block h-2 w-20 overflow-hidden rounded bg-red-100">
        <span className="block h-2 rounded bg-emerald-500" style={{ width: `${pct}%` }} />
      </span>
      <span className="tabular-nums text-xs text-slate-700">{formatUnit(trust)}</span>
    </span>
  );
}
