import { EDIT_VALUES, ERROR_PENALTY, OUTCOME_WEIGHTS, type OutcomeSignals } from "@/lib/credit";
import { formatUnit, formatWeighted } from "@/lib/format";
import { percent } from "./format";
import type { SessionOutcome } from "./types";

type Part = keyof typeof OUTCOME_WEIGHTS;

const PARTS = Object.keys(OUTCOME_WEIGHTS) as Part[];

/** What each weighted part of the score was computed from, in words and as the value the weight multiplies. */
function input(part: Part, s: OutcomeSignals): { label: string; from: string } {
  switch (part) {
    case "tool_success":
      return { label: "Tool success", from: `success rate ${percent(s.tool_success_rate)}` };
    case "user_sentiment":
      return { label: "User sentiment", from: `average sentiment ${formatUnit(s.avg_sentiment)}` };
    case "made_edits":
      return {
        label: "Made edits",
        from: s.made_edits
          ? `edits made: ${formatUnit(EDIT_VALUES.made)}`
          : `no edits: ${formatUnit(EDIT_VALUES.none)}`,
      };
    case "no_errors":
      return {
        label: "No errors",
        from:
          s.error_count === 0
            ? `no errors: ${formatUnit(1)}`
            : `${s.error_count} × −${ERROR_PENALTY}: ${formatUnit(Math.max(0, 1 - s.error_count * ERROR_PENALTY))}`,
      };
  }
}

/** How the outcome score was formed: each part is its weight times a value from the signals, and the parts sum to the score. */
export function ScoreFormation({ outcome }: { outcome: SessionOutcome }) {
  const sum = PARTS.reduce((total, part) => total + outcome.parts[part], 0);
  return (
    <table className="w-full text-xs" data-testid="score-formation">
      <thead>
        <tr className="text-left text-slate-500">
          <th scope="col" className="py-1 font-medium">
            Part
          </th>
          <th scope="col" className="py-1 text-right font-medium">
            Weight
          </th>
          <th scope="col" className="py-1 text-right font-medium">
            Adds
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {PARTS.map((part) => {
          const { label, from } = input(part, outcome.signals);
          return (
            <tr key={part} data-testid={`part-${part}`}>
              <td className="py-1 pr-2">
                <span className="text-slate-900">{label}</span>
                <span className="block text-slate-500">{from}</span>
              </td>
              <td className="py-1 text-right tabular-nums">
                × {formatWeighted(OUTCOME_WEIGHTS[part])}
              </td>
              <td className="py-1 text-right tabular-nums text-slate-900">
                {formatUnit(outcome.parts[part])}
              </td>
            </tr>
          );
        })}
      </tbody>
      <tfoot>
        <tr className="border-t border-slate-300 font-medium text-slate-900">
          <td className="py-1" colSpan={2}>
            Score (sum)
          </td>
          <td className="py-1 text-right tabular-nums">{formatUnit(sum)}</td>
        </tr>
      </tfoot>
    </table>
  );
}
