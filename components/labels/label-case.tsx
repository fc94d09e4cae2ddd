import type { EvalCaseFields } from "@/lib/constitution/eval-yaml";
import type { LabelDraftView } from "@/lib/schemas/labels";

/** An id list, or "none". */
export function IdList({ ids, empty = "none" }: { ids?: readonly string[]; empty?: string }) {
  if (!ids?.length) return <span className="text-slate-400">{empty}</span>;
  return <span className="font-mono text-xs">{ids.join(", ")}</span>;
}

function CaseRows({ c }: { c: EvalCaseFields }) {
  return (
    <dl className="grid grid-cols-[6rem_1fr] gap-x-3 gap-y-1 text-sm">
      <dt className="text-slate-500">Domains</dt>
      <dd>
        <IdList ids={c.domains} empty="none (no overlay applies)" />
      </dd>
      <dt className="text-slate-500">Expect</dt>
      <dd>
        <IdList ids={c.expect} />
      </dd>
      <dt className="text-slate-500">Forbid</dt>
      <dd>
        <IdList ids={c.forbid} />
      </dd>
    </dl>
  );
}

/** The eval case a label would store, and the case it replaces when the prompt had one. */
export function LabelCase({ draft }: { draft: LabelDraftView }) {
  return (
    <section aria-label="The eval case" data-testid="label-case" className="space-y-2">
      <h3 className="text-sm font-semibold text-slate-800">
        {draft.change === "added"
          ? `A new case in ${draft.path}`
          : `This prompt already has a case in ${draft.path}: accepting changes it`}
      </h3>
      {draft.before ? (
        <div className="grid gap-3 sm:grid-cols-2">
          <div>
            <p className="text-xs font-medium uppercase tracking-wide text-slate-500">Now</p>
            <CaseRows c={draft.before} />
          </div>
          <div>
            <p className="text-xs font-medium uppercase tracking-wide text-slate-500">After</p>
            <CaseRows c={draft.case} />
          </div>
        </div>
      ) : (
        <CaseRows c={draft.case} />
      )}
    </section>
  );
}
