import { Time } from "@/components/ui/time";
import { formatCount, formatUnit } from "@/lib/format";
import type { SessionRow } from "@/lib/schemas/session-rows";
import { OutcomeBadge } from "./outcome-badge";
import { agentOf, clipLine, projectOf, sessionOrigin } from "./session-facts";
import { ProjectName, SessionSource } from "./session-source";

type Props = {
  session: SessionRow;
  firstPrompt: string | null;
  turns: number;
  toolCalls: number;
  outcome: { status: string; score: number } | null;
};

/** The session page's header facts: the same as a row of the Sessions table, and the times. */
export function SessionHeader({ session, firstPrompt, turns, toolCalls, outcome }: Props) {
  const origin = sessionOrigin(session.source, session.transcriptPath);
  const facts: [string, React.ReactNode][] = [
    ["Project", <ProjectName key="project" project={projectOf(session.cwd)} />],
    [
      "Agent",
      <span key="agent" data-testid="session-agent">
        {agentOf(origin, session.agent, session.agentVersion)}
      </span>,
    ],
    ["Source", <SessionSource key="source" origin={origin} />],
    [
      "Outcome",
      <span key="outcome" className="whitespace-nowrap">
        <OutcomeBadge status={outcome?.status ?? null} />{" "}
        {outcome ? <span className="tabular-nums">{formatUnit(outcome.score)}</span> : null}
      </span>,
    ],
    [
      "Turns",
      <span key="turns" className="tabular-nums">
        {formatCount(turns)} ({formatCount(toolCalls)} tool calls)
      </span>,
    ],
    ["Started", <Time key="started" value={session.startedAt} />],
    ["Last event", <Time key="last" value={session.lastEventAt} />],
    [
      "Ended",
      session.endedAt ? (
        <span key="ended">
          <Time value={session.endedAt} />
          {session.endReason ? ` (${session.endReason})` : ""}
        </span>
      ) : (
        <span key="ended" className="text-slate-500">
          open
        </span>
      ),
    ],
  ];
  return (
    <div className="space-y-2 text-sm">
      <p
        className="break-words text-base text-slate-900"
        data-testid="session-first-prompt"
        title={firstPrompt ?? undefined}
      >
        {firstPrompt ? (
          clipLine(firstPrompt, 240)
        ) : (
          <span className="italic text-slate-400">no prompt</span>
        )}
      </p>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-1 sm:grid-cols-4">
        {facts.map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="text-xs text-slate-500">{label}</dt>
            <dd className="break-words text-slate-800">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="font-mono text-xs text-slate-500">
        <span data-testid="session-id">{session.id}</span>
        {session.transcriptPath ? (
          <span title="transcript on the agent's machine"> · {session.transcriptPath}</span>
        ) : null}
      </p>
    </div>
  );
}
