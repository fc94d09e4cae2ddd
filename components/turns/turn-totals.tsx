import { Time } from "@/components/ui/time";
import type { WeightSetRow } from "@/lib/db/weights";
import { formatScore } from "./format";
import { TotalBar } from "./total-bar";

type Totals = { weightedTotal: number; maxTotal: number; normalizedTotal: number; scoredAt: Date };

/** A turn's totals and the weight set they were computed under. */
export function TurnTotals({ score, weights }: { score: Totals; weights: WeightSetRow | null }) {
  return (
    <div data-testid="turn-totals" data-weighted-total={score.weightedTotal} data-max-total={score.maxTotal} className="space-y-3 text-sm">
      <p className="text-3xl font-semibold tabular-nums text-slate-900">
        {formatScore(score.weightedTotal)} <span className="text-base font-normal text-slate-500">/ {formatScore(score.maxTotal)}</span>
      </p>
      <TotalBar normalized={score.normalizedTotal} weighted={score.weightedTotal} max={score.maxTotal} />
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt className="text-slate-500">Normalized</dt>
        <dd className="tabular-nums">{formatScore(score.normalizedTotal)}</dd>
        <dt className="text-slate-500">Weighted total</dt>
        <dd className="tabular-nums">{formatScore(score.weightedTotal)}</dd>
        <dt className="text-slate-500">Max total</dt>
        <dd className="tabular-nums">{formatScore(score.maxTotal)}</dd>
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
