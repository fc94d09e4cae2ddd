import { Badge } from "@/components/ui/primitives";
import type { UserFeedback } from "@/lib/credit";
import { formatUnit } from "@/lib/format";

const TONES: Record<UserFeedback["type"], "green" | "red" | "amber" | "indigo" | "slate"> = {
  explicit_positive: "green",
  explicit_negative: "red",
  implicit_retry: "amber",
  implicit_continuation: "indigo",
  neutral: "slate",
};

/** What a prompt said about the agent's previous turn: its type, sentiment, confidence and the pattern matched. */
export function FeedbackSummary({ feedback }: { feedback: UserFeedback | null }) {
  if (!feedback) return <span className="text-xs text-slate-400">no feedback recorded</span>;
  const pattern = feedback.matched_patterns?.[0];
  return (
    <span
      className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600"
      data-testid="feedback"
    >
      <Badge tone={TONES[feedback.type]}>{feedback.type}</Badge>
      <span>
        sentiment{" "}
        <span className="tabular-nums text-slate-900">{formatUnit(feedback.sentiment)}</span>
      </span>
      <span>
        confidence{" "}
        <span className="tabular-nums text-slate-900">{formatUnit(feedback.confidence)}</span>
      </span>
      {pattern ? (
        <span>
          matched{" "}
          <code className="rounded bg-slate-100 px-1 font-mono text-[11px] text-slate-800">
            {pattern}
          </code>
        </span>
      ) : null}
    </span>
  );
}
