import { Time } from "@/components/ui/time";
import { OUTCOME_THRESHOLDS } from "@/lib/credit";
import { formatCount, formatUnit } from "@/lib/format";
import { percent } from "./format";
import { OutcomeBadge } from "./outcome-badge";
import { ScoreFormation } from "./score-formation";
import type { SessionOutcome } from "./types";

/** A session's outcome: status and score, the signals read from the session, how the score was formed, and the thresholds. */
export function OutcomeSummary({ outcome }: { outcome: SessionOutcome | null }) {
  if (!outcome) {
    return (
      <p className="text-sm text-slate-600" data-testid="session-outcome" data-status="open">
        <OutcomeBadge status={null} /> Not credited yet: the outcome and the principles&apos; credit
        are computed once, when the session ends (SessionEnd).
      </p>
    );
  }
  const s = outcome.signals;
  const signals: [string, string][] = [
    ["Tool success rate", percent(s.tool_success_rate)],
    ["Errors", formatCount(s.error_count)],
    ["Edits", s.made_edits ? formatCount(s.edit_count) : "none"],
    ["Files touched", formatCount(s.files_touched)],
    ["Average sentiment", formatUnit(s.avg_sentiment)],
    ["Prompts", formatCount(s.prompt_count)],
  ];
  return (
    <div
      className="space-y-4 text-sm"
      data-testid="session-outcome"
      data-status={outcome.status}
      data-score={outcome.score}
    >
      <p className="flex items-center gap-3">
        <OutcomeBadge status={outcome.status} />
        <span
          className="text-3xl font-semibold tabular-nums text-slate-900"
          data-testid="outcome-score"
        >
          {formatUnit(outcome.score)}
        </span>
      </p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1" data-testid="outcome-signals">
        {signals.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-slate-500">{label}</dt>
            <dd className="tabular-nums text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      <ScoreFormation outcome={outcome} />
      <p className="text-xs text-slate-500">
        Success at {formatUnit(OUTCOME_THRESHOLDS.success)} or above, failure at{" "}
        {formatUnit(OUTCOME_THRESHOLDS.failure)} or below, partial in between. Credited{" "}
        <Time value={outcome.computedAt} />.
      </p>
    </div>
  );
}
