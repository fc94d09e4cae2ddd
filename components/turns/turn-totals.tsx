import { Time } from "@/components/ui/time";
import type { WeightSetRow } from "@/lib/schemas/weight-rows";
import { formatUnit, formatWeighted } from "@/lib/format";

type Totals = { weightedTotal: number; maxTotal: number; normalizedTotal: number; scoredAt: Date };

/** A turn's totals: the normalized total first (the scale of the Turns filters), the weighted total beside it, and the weight set they were computed under. */
export function TurnTotals({ score, weights }: { score: Totals; weights: WeightSetRow | null }) {
  return (
    <div
      data-testid="turn-totals"
      data-weighted-total={score.weightedTotal}
      data-max-total={score.maxTotal}
      data-normalized-total={score.normalizedTotal}
      className="space-y-3 text-sm"
    >
      <p className="text-3xl font-semibold tabular-nums text-slate-900">
        {formatUnit(score.normalizedTotal)}{" "}
        <span className="text-base font-normal text-slate-500">
          normalized, weighted {formatWeighted(score.weightedTotal)} /{" "}
          {formatWeighted(score.maxTotal)}
        </span>
      </p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt className="text-slate-500">Normalized</dt>
        <dd className="tabular-nums">{formatUnit(score.normalizedTotal)}</dd>
        <dt className="text-slate-500">Weighted total</dt>
        <dd className="tabular-nums">{formatWeighted(score.weightedTotal)}</dd>
        <dt className="text-slate-500">Max total</dt>
        <dd className="tabular-nums">{formatWeighted(score.maxTotal)}</dd>
        <dt className="text-slate-500">Scored</dt>
        <dd>
          <Time value={score.scoredAt} />
        </dd>
        <dt className="text-slate-500">Weights</dt>
        <dd>{weights ? `set ${weights.id}: ${weights.message}` : "unknown weight set"}</dd>
      </dl>
    </div>
  );
}
