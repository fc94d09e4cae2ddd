import Link from "next/link";
import { InjectedChips } from "@/components/turns/injected-principles";
import { TotalBar } from "@/components/turns/total-bar";
import { Time } from "@/components/ui/time";
import { FeedbackSummary } from "./feedback-badge";
import type { SessionTurn } from "./types";

/** The session's prompts in order, each with the feedback it carried about the turn before and its turn's score. */
export function PromptTimeline({
  turns,
  titles,
}: {
  turns: SessionTurn[];
  titles: Map<string, string>;
}) {
  if (turns.length === 0)
    return <p className="text-sm text-slate-500">No prompt was reported in this session.</p>;
  return (
    <ol className="relative space-y-5 border-l border-slate-200 pl-5">
      {turns.map((turn) => (
        <li key={turn.id} data-testid={`prompt-${turn.number}`} className="relative">
          <span
            aria-hidden="true"
            className="absolute -left-[1.6rem] top-1 h-3 w-3 rounded-full border-2 border-white bg-indigo-500 ring-1 ring-indigo-200"
          />
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <p className="text-sm font-medium text-slate-900">
              <Link
                href={`/turns/${encodeURIComponent(turn.id)}`}
                className="text-indigo-600 hover:underline"
                aria-label={`Turn ${turn.number}`}
              >
                Turn {turn.number}
              </Link>{" "}
              <span className="text-xs font-normal text-slate-500">
                <Time value={turn.startedAt} />
              </span>
            </p>
            {turn.score ? (
              <span
                className="flex items-center gap-2 text-xs text-slate-500"
                data-testid="turn-total"
              >
                normalized total
                <TotalBar
                  normalized={turn.score.normalizedTotal}
                  weighted={turn.score.weightedTotal}
                  max={turn.score.maxTotal}
                />
              </span>
            ) : (
              <span className="text-xs text-slate-400">not scored yet</span>
            )}
          </div>
          <p
            className="mt-1 whitespace-pre-wrap break-words text-sm text-slate-800"
            data-testid="prompt-text"
          >
            {turn.prompt || <span className="italic text-slate-400">no prompt</span>}
          </p>
          <div className="mt-2 space-y-1">
            <FeedbackSummary feedback={turn.feedback} />
            <div className="flex flex-wrap items-center gap-2 text-xs text-slate-500">
              <InjectedChips
                ids={turn.injectedPrinciples}
                retrieved={turn.retrievedPrinciples}
                delivery={turn.contextDelivery}
                titles={titles}
              />
            </div>
          </div>
        </li>
      ))}
    </ol>
  );
}
