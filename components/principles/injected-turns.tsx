import Link from "next/link";
import { shortId } from "@/components/ui/format";
import { Time } from "@/components/ui/time";
import type { InjectedTurn } from "./types";

/** The turns whose prompt retrieved this principle and injected it, newest first. */
export function InjectedTurns({ turns }: { turns: InjectedTurn[] }) {
  if (turns.length === 0)
    return <p className="text-sm text-slate-500">Not injected into any turn yet.</p>;
  return (
    <ul className="divide-y divide-slate-100 text-sm">
      {turns.map((t) => (
        <li key={t.id} className="py-2" data-testid={`injected-turn-${t.id}`}>
          <p className="flex flex-wrap items-baseline gap-x-2 text-xs text-slate-500">
            <Link
              href={`/turns/${encodeURIComponent(t.id)}`}
              className="font-medium text-indigo-600 hover:underline"
            >
              Turn {t.number}
            </Link>
            of
            <Link
              href={`/sessions/${encodeURIComponent(t.sessionId)}`}
              title={t.sessionId}
              className="font-mono text-indigo-600 hover:underline"
            >
              {shortId(t.sessionId)}
            </Link>
            <Time value={t.startedAt} />
          </p>
          <p className="mt-0.5 truncate text-slate-800" title={t.prompt}>
            {t.prompt || <span className="italic text-slate-400">no prompt</span>}
          </p>
        </li>
      ))}
    </ul>
  );
}
