import { OUTCOME_THRESHOLDS } from "@/lib/credit";
import { formatUnit } from "@/lib/format";

/** A credit (0..1) as a bar with its value, coloured by the outcome thresholds (success, partial, failure). */
export function CreditBar({ credit }: { credit: number }) {
  const clamped = Math.min(Math.max(credit, 0), 1);
  const tone =
    clamped >= OUTCOME_THRESHOLDS.success
      ? "bg-emerald-500"
      : clamped > OUTCOME_THRESHOLDS.failure
        ? "bg-amber-500"
        : "bg-red-500";
  return (
    <span className="flex items-center gap-2 whitespace-nowrap">
      <span aria-hidden="true" className="block h-2 w-24 overflow-hidden rounded bg-slate-100">
        <span
          className={`block h-2 rounded ${tone}`}
          style={{ width: `${Math.round(clamped * 100)}%` }}
        />
      </span>
      <span className="tabular-nums text-xs text-slate-700">{formatUnit(credit)}</span>
    </span>
  );
}
