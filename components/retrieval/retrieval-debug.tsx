import type { ReactNode } from "react";
import type { DebugInfo } from "@/lib/constitution/store";
import { contextText } from "./why";

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[12rem_1fr] gap-3 py-1">
      <dt className="text-slate-500">{label}</dt>
      <dd className="text-slate-800">{children}</dd>
    </div>
  );
}

/** How the retrieval ran: path, prefilter cache, timings, context budget, LLM calls and fallbacks, plus the raw JSON. */
export function RetrievalDebug({ debug }: { debug: DebugInfo }) {
  return (
    <div className="space-y-3 text-sm">
      <dl aria-label="Debug info" className="divide-y divide-slate-100">
        <Row label="Path">{debug.path}</Row>
        <Row label="Prefilter cache">{debug.prefilter_cache_status}</Row>
        <Row label="Timings">
          prefilter {debug.timings_ms.prefilter} ms · agents {debug.timings_ms.agents} ms · total{" "}
          {debug.timings_ms.total} ms
        </Row>
        <Row label="Context">{contextText(debug.context)}</Row>
        <Row label="LLM calls">
          prefilter {debug.llm_calls.prefilter} · domain agents {debug.llm_calls.domain_agent}
        </Row>
        <Row label="Domains considered">
          {debug.domains_considered.length ? debug.domains_considered.join(", ") : "none"}
        </Row>
        <Row label="Fallbacks">
          {debug.fallbacks.length === 0 ? (
            "none"
          ) : (
            <ul className="list-disc pl-4">
              {debug.fallbacks.map((f, i) => (
                <li key={i}>
                  {f.stage}
                  {f.domain ? ` (${f.domain})` : ""}: {f.reason}
                </li>
              ))}
            </ul>
          )}
        </Row>
        <Row label="Warnings">
          {(debug.warnings ?? []).length === 0 ? (
            "none"
          ) : (
            <ul className="list-disc pl-4">
              {debug.warnings.map((w, i) => (
                <li key={i}>{w}</li>
              ))}
            </ul>
          )}
        </Row>
      </dl>
      <details>
        <summary className="cursor-pointer text-sm font-medium text-slate-700">
          Raw debug JSON
        </summary>
        <pre className="mt-2 max-h-96 overflow-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100">
          {JSON.stringify(debug, null, 2)}
        </pre>
      </details>
    </div>
  );
}
