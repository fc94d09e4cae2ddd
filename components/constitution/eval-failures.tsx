import Link from "next/link";
import type { EvalFailure } from "@/lib/constitution";
import { groupFailures, playgroundHref } from "./eval-metrics";
import { EvalSuggestion } from "./eval-suggestions";

/**
 * A version's eval failures grouped by kind; each prompt opens the Retrieval playground on
 * it. With `suggestVersionId` (the current version's), each failure offers "Suggest a fix".
 */
export function EvalFailures({
  failures,
  suggestVersionId,
}: {
  failures: EvalFailure[];
  suggestVersionId?: number;
}) {
  if (failures.length === 0)
    return (
      <p className="text-sm text-slate-600">No failures: every case got what its labels ask for.</p>
    );
  return (
    <div className="space-y-5">
      {groupFailures(failures).map((group) => (
        <section
          key={group.kind}
          data-testid={`failures-${group.kind}`}
          aria-label={`${group.label} (${group.failures.length})`}
        >
          <h3 className="mb-2 text-sm font-semibold text-slate-800">
            {group.label} ({group.failures.length})
          </h3>
          <ul className="divide-y divide-slate-100 rounded-md border border-slate-200">
            {group.failures.map((f, i) => (
              <li key={`${f.file}:${f.line}:${i}`} className="space-y-0.5 px-3 py-2 text-sm">
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <Link
                    href={playgroundHref(f.prompt)}
                    className="font-medium text-indigo-700 hover:underline"
                    title="Open in the Retrieval playground"
                  >
                    {f.prompt}
                  </Link>
                  <span className="font-mono text-xs text-slate-500">
                    {f.file}:{f.line}
                  </span>
                </div>
                <p className="text-xs text-slate-600">{f.message}</p>
                {suggestVersionId ? (
                  <EvalSuggestion
                    key={`${suggestVersionId}:${f.file}:${f.line}:${f.kind}`}
                    versionId={suggestVersionId}
                    failure={f}
                  />
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
