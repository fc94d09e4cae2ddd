import Link from "next/link";
import { Table, Td } from "@/components/ui/primitives";
import { Time } from "@/components/ui/time";
import { formatScore, shortId } from "@/components/turns/format";
import { OutcomeBadge } from "./outcome-badge";

export type SessionRow = {
  id: string;
  source: string;
  startedAt: Date;
  lastEventAt: Date;
  turns: number;
  toolCalls: number;
  outcome: { status: string; score: number } | null;
};

const link = "text-indigo-600 hover:underline";

/** Sessions, newest activity first, with their outcome once credited. */
export function SessionsTable({ rows }: { rows: SessionRow[] }) {
  return (
    <Table
      head={["Session", "Source", "Started", "Last event", "Turns", "Tool calls", "Outcome", "Score"]}
      empty={rows.length === 0 ? <p className="px-3 py-6 text-center text-sm text-slate-500">No sessions here yet.</p> : null}
    >
      {rows.map((row) => (
        <tr key={row.id} data-testid={`session-${row.id}`} className="hover:bg-slate-50">
          <Td className="font-mono text-xs">
            <Link href={`/sessions/${encodeURIComponent(row.id)}`} title={row.id} aria-label={`Session ${row.id}`} className={link}>
              {shortId(row.id)}
            </Link>
          </Td>
          <Td className="text-xs">{row.source}</Td>
          <Td className="whitespace-nowrap text-xs">
            <Time value={row.startedAt} />
          </Td>
          <Td className="whitespace-nowrap text-xs">
            <Time value={row.lastEventAt} />
          </Td>
          <Td className="tabular-nums">{row.turns}</Td>
          <Td className="tabular-nums">{row.toolCalls}</Td>
          <Td>
            <OutcomeBadge status={row.outcome?.status ?? null} />
          </Td>
          <Td className="tabular-nums">{row.outcome ? formatScore(row.outcome.score) : <span className="text-slate-400">—</span>}</Td>
        </tr>
      ))}
    </Table>
  );
}
