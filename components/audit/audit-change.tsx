import type { FieldChange } from "./describe";

/** An entry's changes as rows of "field: before → after"; values are text, never markup. */
export function AuditChange({ changes }: { changes: FieldChange[] }) {
  if (changes.length === 0) return <span className="text-slate-400">no recorded values</span>;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
      {changes.map((change) => (
        <div key={change.field} className="contents">
          <dt className="font-mono text-slate-500">{change.field}</dt>
          <dd className="break-words text-slate-700">
            {change.before === "—" ? null : (
              <>
                <span className="text-red-700 line-through decoration-red-300">
                  {change.before}
                </span>
                <span className="px-1 text-slate-400" aria-label="changed to">
                  →
                </span>
              </>
            )}
            <span className={change.after === "—" ? "text-slate-400" : "text-emerald-800"}>
              {change.after}
            </span>
          </dd>
        </div>
      ))}
    </dl>
  );
}
