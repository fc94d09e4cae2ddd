import type { EvalMetrics, MetricName, ThresholdResult } from "@/lib/constitution";
import { checkThresholds } from "@/lib/constitution/eval";
import type { LearnedStatus } from "@/lib/schemas/constitution-rows";
import { deltaRows, METRIC_NAMES } from "./eval-metrics";
import { MetricDeltaTable } from "./metric-delta-table";

const limitsOf = (thresholds: readonly ThresholdResult[]) =>
  Object.fromEntries(thresholds.map((t) => [t.name, t.limit]));

/**
 * A version's learned term weights: the eval's metrics on the keywords alone beside the
 * same metrics cross-validated with the learned weights (each case answered by a model
 * fitted without it), or why there are none yet.
 */
export function LearnedCard({
  status,
  thresholds,
}: {
  status: LearnedStatus;
  thresholds: readonly ThresholdResult[];
}) {
  if (status.state === "pending")
    return (
      <p className="text-sm text-slate-600" data-testid="learned-pending">
        Being fitted from this version&apos;s eval set; until then retrieval uses the keywords
        alone.
      </p>
    );
  if (status.state === "failed")
    return (
      <p role="alert" className="text-sm text-amber-800">
        The fit failed: {status.error}. Retrieval uses the keywords alone.
      </p>
    );
  if (status.state === "none")
    return (
      <p className="text-sm text-slate-600">
        Not fitted: this version was saved before learned weights existed, or its fit has not been
        queued yet. It is queued when the version is first served.
      </p>
    );
  const { fit } = status;
  const pick = (m: EvalMetrics) => (name: MetricName) => m[name];
  const before = pick(fit.keywords);
  const after = pick(fit.crossValidated);
  const rows = deltaRows(
    METRIC_NAMES.map((name) => ({ name, before: before(name), after: after(name) })),
    checkThresholds(fit.crossValidated, limitsOf(thresholds)),
  );
  const models = Object.keys(fit.model.domains).length + Object.keys(fit.model.principles).length;
  return (
    <div className="space-y-3" data-testid="learned-metrics">
      <p className="text-sm text-slate-600">
        {models === 0
          ? "No labels to learn from: retrieval answers on the keywords alone."
          : `${Object.keys(fit.model.domains).length} domain and ${Object.keys(fit.model.principles).length} principle models fitted from ${fit.model.cases} labelled prompts in ${(fit.fitMs / 1000).toFixed(1)} s; the server retrieves with them. The figures are ${fit.folds}-fold cross-validated: no case is answered by a model fitted on it.`}
      </p>
      <MetricDeltaTable
        rows={rows}
        label="Eval metrics on the keywords alone and with the learned weights"
        before="Keywords alone"
        after="Learned (cross-validated)"
        testIdPrefix="learned"
      />
    </div>
  );
}
