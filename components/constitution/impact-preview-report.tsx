import { Badge, cx } from "@/components/ui/primitives";
import type { CaseDelta, ReplayImpact } from "@/lib/constitution";
import type { ImpactPreview } from "@/lib/schemas/constitution";
import { deltaRows, METRIC_LABELS, METRIC_NAMES } from "./eval-metrics";
import { MetricDeltaTable } from "./metric-delta-table";

function Ids({ ids, sign }: { ids: string[]; sign?: "+" | "-" }) {
  if (ids.length === 0) return <span className="text-xs text-slate-400">none</span>;
  const tone =
    sign === "+"
      ? "bg-emerald-50 text-emerald-800 ring-emerald-200"
      : sign === "-"
        ? "bg-red-50 text-red-800 ring-red-200"
        : "bg-slate-50 text-slate-700 ring-slate-200";
  return (
    <span className="inline-flex flex-wrap gap-1">
      {ids.map((id) => (
        <span
          key={id}
          className={cx("rounded px-1.5 py-0.5 font-mono text-[11px] ring-1 ring-inset", tone)}
        >
          {sign}
          {id}
        </span>
      ))}
    </span>
  );
}

function Passed({ ok }: { ok: boolean }) {
  return ok ? <Badge tone="green">met</Badge> : <Badge tone="red">missed</Badge>;
}

const CASE_LISTS = [
  {
    key: "lost_hits",
    title: "Lost hits",
    hint: "Cases that no longer get any of their expected principles.",
    testId: "lost-hits",
  },
  {
    key: "new_false_injections",
    title: "New false injections",
    hint: "Cases no overlay applies to that now get overlay principles.",
    testId: "new-false-injections",
  },
  {
    key: "new_traps",
    title: "New traps",
    hint: "Cases that now get a forbidden principle.",
    testId: "new-traps",
  },
  {
    key: "gained_hits",
    title: "Gained hits",
    hint: "Cases that now get one of their expected principles.",
    testId: "gained-hits",
  },
  {
    key: "cleared_false_injections",
    title: "Cleared false injections",
    hint: "Cases no overlay applies to that no longer get overlay principles.",
    testId: "cleared-false-injections",
  },
  {
    key: "cleared_traps",
    title: "Cleared traps",
    hint: "Cases that no longer get a forbidden principle.",
    testId: "cleared-traps",
  },
] as const;

function CaseList({
  title,
  hint,
  testId,
  cases,
  bad,
}: {
  title: string;
  hint: string;
  testId: string;
  cases: CaseDelta[];
  bad: boolean;
}) {
  return (
    <section data-testid={testId} aria-label={`${title} (${cases.length})`} className="space-y-1">
      <h4 className={cx("text-sm font-semibold", bad ? "text-red-800" : "text-emerald-800")}>
        {title} ({cases.length})
      </h4>
      <p className="text-xs text-slate-500">{hint}</p>
      <ul className="divide-y divide-slate-100 rounded-md border border-slate-200">
        {cases.map((c) => (
          <li key={`${c.file}:${c.line}`} className="space-y-1 px-3 py-2 text-sm">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <span className="text-slate-900">{c.prompt}</span>
              <span className="font-mono text-xs text-slate-500">
                {c.file}:{c.line}
              </span>
            </div>
            <div className="flex flex-wrap items-center gap-2 text-xs text-slate-500">
              <Ids ids={c.before} /> <span aria-label="becomes">→</span> <Ids ids={c.after} />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Replay({ replay }: { replay: ReplayImpact }) {
  if (replay.prompts === 0) {
    return (
      <p data-testid="replay-summary" className="text-sm text-slate-600">
        No stored prompts to replay yet: the replay uses prompts agents have sent.
      </p>
    );
  }
  const tally = (xs: { id: string; prompts: number }[]) =>
    xs.map((x) => `${x.id} in ${x.prompts}`).join(", ");
  return (
    <div className="space-y-2 text-sm">
      <p data-testid="replay-summary" className="font-medium text-slate-800">
        {replay.changed} of {replay.prompts} recent prompts would change
      </p>
      {replay.gained.length ? (
        <p className="text-slate-700">
          <span className="text-emerald-800">Principles gained</span> (in how many prompts):{" "}
          <span className="font-mono text-xs">{tally(replay.gained)}</span>
        </p>
      ) : null}
      {replay.lost.length ? (
        <p className="text-slate-700">
          <span className="text-red-800">Principles lost</span> (in how many prompts):{" "}
          <span className="font-mono text-xs">{tally(replay.lost)}</span>
        </p>
      ) : null}
      {replay.examples.length ? (
        <ul
          aria-label="Examples of prompts that would change"
          className="divide-y divide-slate-100 rounded-md border border-slate-200"
        >
          {replay.examples.map((e, i) => (
            <li key={i} className="flex flex-wrap items-baseline justify-between gap-2 px-3 py-2">
              <span className="min-w-0 break-words text-slate-900">{e.prompt}</span>
              <span className="flex flex-wrap gap-1">
                {e.gained.length ? <Ids ids={e.gained} sign="+" /> : null}
                {e.lost.length ? <Ids ids={e.lost} sign="-" /> : null}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** What the draft's learned weights would change, cross-validated (no case answered by a model fitted on it). */
function Learned({ preview }: { preview: ImpactPreview }) {
  const { learned, draft } = preview;
  const before = learned.base ?? draft.metrics;
  const rows = deltaRows(
    METRIC_NAMES.map((name) => ({ name, before: before[name], after: learned.draft[name] })),
    [],
  );
  return (
    <div className="border-t border-slate-100 pt-3" data-testid="impact-learned">
      <h4 className="mb-1 text-sm font-semibold text-slate-800">
        Learned weights, {learned.folds}-fold cross-validated
      </h4>
      <p className="mb-2 text-xs text-slate-600">
        {learned.base
          ? "The base version's learned figures (on its own eval set) beside the draft's, refitted on the draft's eval set."
          : "The base version has no fit yet: the draft's figures on the keywords alone beside its learned ones."}
      </p>
      <MetricDeltaTable
        rows={rows}
        label="Learned weights before and after"
        before={learned.base ? "Base, learned" : "Draft, keywords alone"}
        after="Draft, learned"
        testIdPrefix="learned-delta"
      />
    </div>
  );
}

/** An impact preview's findings: metric deltas, thresholds before and after, the eval cases that changed, and the replay. */
export function ImpactPreviewReport({ preview }: { preview: ImpactPreview }) {
  const { eval: comparison, draft, replay } = preview;
  const missedAfter = draft.thresholds.filter((t) => !t.ok);
  const rows = deltaRows(comparison.metrics, draft.thresholds);
  const lists = CASE_LISTS.map((l) => ({
    ...l,
    cases: comparison[l.key],
    bad: l.key === "lost_hits" || l.key.startsWith("new_"),
  })).filter((l) => l.cases.length > 0);
  return (
    <div className="space-y-4">
      <p
        className="flex flex-wrap items-center gap-2 text-sm text-slate-700"
        data-testid="impact-thresholds"
      >
        Thresholds before <Passed ok={comparison.passed.before} /> after{" "}
        <Passed ok={comparison.passed.after} />
        {missedAfter.length ? (
          <span className="text-xs text-red-700">
            missed after: {missedAfter.map((t) => METRIC_LABELS[t.name]).join(", ")}
          </span>
        ) : null}
      </p>
      {draft.metrics.cases === 0 ? (
        <p className="text-sm text-slate-600">
          The draft has no eval cases, so only the replay below measures it.
        </p>
      ) : (
        <>
          <MetricDeltaTable rows={rows} label="Eval metrics before and after" />
          <p className="text-sm text-slate-600">
            {comparison.changed_cases} of {draft.metrics.cases} eval{" "}
            {draft.metrics.cases === 1 ? "case injects" : "cases inject"} something different.
          </p>
          {lists.map((l) => (
            <CaseList
              key={l.key}
              title={l.title}
              hint={l.hint}
              testId={l.testId}
              cases={l.cases}
              bad={l.bad}
            />
          ))}
        </>
      )}
      {draft.metrics.cases > 0 ? <Learned preview={preview} /> : null}
      <div className="border-t border-slate-100 pt-3">
        <h4 className="mb-1 text-sm font-semibold text-slate-800">Replay of recent prompts</h4>
        <Replay replay={replay} />
      </div>
    </div>
  );
}
