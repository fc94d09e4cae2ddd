import Link from "next/link";
import { Table, Td } from "@/components/ui/primitives";
import { Time } from "@/components/ui/time";
import { formatCount, formatUnit } from "@/lib/format";
import { OutcomeBadge } from "./outcome-badge";
import { agentOf, clipLine, projectOf, sessionOrigin } from "./session-facts";
import { ProjectName, SessionSource } from "./session-source";

export type SessionRow = {
  id: string;
  source: string;
  cwd: string | null;
  transcriptPath: string | null;
  agent: string | null;
  agentVersion: string | null;
  firstPrompt: string | null;
  lastEventAt: Date;
  turns: number;
  toolCalls: number;
  outcome: { status: string; score: number } | null;
};

export const SESSION_TABLE_HEAD = [
  "Project",
  "First prompt",
  "Agent",
  "Source",
  "Outcome",
  "Turns",
  "Tools",
  "Last event",
];

/** Sessions, newest activity first: the project, what was asked first, the agent, where the events came from, and the outcome once credited. */
export function SessionsTable({ rows }: { rows: SessionRow[] }) {
  return (
    <Table
      head={SESSION_TABLE_HEAD}
      empty={
        rows.length === 0 ? (
          <p className="px-3 py-6 text-center text-sm text-slate-500">No sessions here yet.</p>
        ) : null
      }
    >
      {rows.map((row) => {
        const origin = sessionOrigin(row.source, row.transcriptPath);
        return (
          <tr key={row.id} data-testid={`session-${row.id}`} className="hover:bg-slate-50">
            <Td className="whitespace-nowrap">
              <ProjectName project={projectOf(row.cwd)} />
            </Td>
            <Td className="max-w-xs">
              <Link
                href={`/sessions/${encodeURIComponent(row.id)}`}
                title={`Session ${row.id}`}
                aria-label={`Session ${row.id}`}
                className="block truncate text-slate-800 hover:text-indigo-600 hover:underline"
                data-testid="session-first-prompt"
              >
                {row.firstPrompt ? (
                  clipLine(row.firstPrompt)
                ) : (
                  <span className="italic text-slate-400">no prompt</span>
                )}
              </Link>
            </Td>
            <Td className="whitespace-nowrap text-xs leading-6">
              <span data-testid="session-agent">
                {agentOf(origin, row.agent, row.agentVersion)}
              </span>
            </Td>
            <Td>
              <SessionSource origin={origin} />
            </Td>
            <Td className="whitespace-nowrap">
              <span data-testid="session-outcome-cell">
                <OutcomeBadge status={row.outcome?.status ?? null} />{" "}
                {row.outcome ? (
                  <span className="tabular-nums text-xs text-slate-700">
                    {formatUnit(row.outcome.score)}
                  </span>
                ) : null}
              </span>
            </Td>
            <Td className="text-right tabular-nums">{formatCount(row.turns)}</Td>
            <Td className="text-right tabular-nums">{formatCount(row.toolCalls)}</Td>
            <Td className="whitespace-nowrap text-xs leading-6">
              <Time value={row.lastEventAt} />
            </Td>
          </tr>
        );
      })}
    </Table>
  );
}
