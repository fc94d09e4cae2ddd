import { Time } from "@/components/ui/time";
import type { ScoreDict } from "@/lib/reward";
import { formatUnit } from "@/lib/format";

type Override = {
  id: string;
  principle: string;
  value: number;
  reason: string;
  authorLabel: string;
  createdAt: Date;
};

/** Reviewers' overrides: the engine's score, the reviewer's, who and why. */
export function OverrideList({ overrides, engine }: { overrides: Override[]; engine: ScoreDict }) {
  if (overrides.length === 0)
    return (
      <p className="text-sm text-slate-500">No reviewer has overridden a score of this turn.</p>
    );
  return (
    <ul className="space-y-3 text-sm">
      {overrides.map((o) => {
        const was = engine[o.principle as keyof ScoreDict];
        return (
          <li
            key={o.id}
            data-testid={`override-${o.principle}`}
            className="space-y-1 border-l-2 border-amber-300 pl-3"
          >
            <p>
              <span className="font-medium text-slate-900">{o.principle}</span>{" "}
              <span className="tabular-nums">
                {was === undefined ? "" : `${formatUnit(was)} → `}
                {formatUnit(o.value)}
              </span>
            </p>
            <p className="whitespace-pre-wrap break-words text-slate-700">{o.reason}</p>
            <p className="text-xs text-slate-500">
              {o.authorLabel}, <Time value={o.createdAt} />
            </p>
          </li>
        );
      })}
    </ul>
  );
}
