import { formatUnit } from "@/lib/format";

/** A 0-1 confidence as a bar with its value. */
export function ConfidenceBar({ value }: { value: number }) {
  const percent = Math.round(Math.min(Math.max(value, 0), 1) * 100);
  return (
    <span className="flex items-center gap-2">
      <span aria-hidden="true" className="block h-2 w-32 overflow-hidden rounded bg-slate-100">
        <span className="block h-2 rounded bg-indigo-500" style={{ width: `${percent}%` }} />
      </span>
      <span className="tabular-nums text-xs text-slate-700">{formatUnit(value)}</span>
    </span>
  );
}
