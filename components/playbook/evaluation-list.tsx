import Link from "next/link";
import { shortId } from "@/components/ui/format";
import { Badge } from "@/components/ui/primitives";
import { Time } from "@/components/ui/time";
import { plural } from "@/components/ui/format";
import type { EvaluationView } from "./types";

const tone = (rating: string) =>
  rating === "harmful" ? "red" : rating === "helpful" ? "green" : "slate";

/**
 * The rating events behind a key point's counts, newest first. Counts that came from
 * an imported playbook.json have no events, so the difference is stated, not hidden.
 */
export function EvaluationList({
  events,
  eventCount,
  counted,
}: {
  events: EvaluationView[];
  eventCount: number;
  counted: number;
}) {
  const unrecorded = counted - eventCount;
  return (
    <div className="space-y-1 text-xs" data-testid="evidence">
      {events.length === 0 ? (
        <p className="text-slate-500">No rating events recorded.</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded border border-slate-100">
          {events.map((e) => (
            <li
              key={e.id}
              className="flex flex-wrap items-center gap-2 px-2 py-1"
              data-testid="evaluation"
            >
              <Badge tone={tone(e.rating)}>{e.rating}</Badge>
              {e.sessionId ? (
                <Link
                  href={`/sessions/${encodeURIComponent(e.sessionId)}`}
                  title={e.sessionId}
                  className="font-mono text-indigo-600 hover:underline"
                >
                  session {shortId(e.sessionId, 12)}
                </Link>
              ) : (
                <span className="text-slate-500">no session (applied by hand)</span>
              )}
              <span className="ml-auto text-slate-500">
                <Time value={e.createdAt} />
              </span>
            </li>
          ))}
        </ul>
      )}
      {eventCount > events.length ? (
        <p className="text-slate-500">and {plural(eventCount - events.length, "older event")}.</p>
      ) : null}
      {unrecorded > 0 ? (
        <p className="text-slate-500">
          {plural(unrecorded, "rating")} of the counts came without events (imported or migrated
          from a playbook.json).
        </p>
      ) : null}
    </div>
  );
}
