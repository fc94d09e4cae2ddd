import Link from "next/link";
import { Badge, Td } from "@/components/ui/primitives";
import { Time } from "@/components/ui/time";
import { formatUnit } from "@/lib/format";
import { agentLabel } from "@/lib/schemas/agents";
import { shortId } from "@/components/ui/format";
import { lowestPrinciple } from "./format";
import type { TurnRow as Row } from "./rows";
import { TotalBar } from "./total-bar";

export const TURN_TABLE_HEAD = [
  "Scored",
  "Session",
  "Agent",
  "Turn",
  "Prompt",
  "Normalized total (weighted)",
  "Lowest",
  "",
];

const link = "text-indigo-600 hover:underline";

/** One scored turn in the Turns table; the turn number and the prompt link to its page. */
export function TurnRow({ row }: { row: Row }) {
  const lowest = lowestPrinciple(row.scores);
  const href = `/turns/${encodeURIComponent(row.id)}`;
  return (
    <tr data-testid={`turn-${row.sessionId}-${row.number}`} className="hover:bg-slate-50">
      <Td className="whitespace-nowrap text-xs">
        <Time value={row.scoredAt} />
      </Td>
      <Td className="font-mono text-xs">
        <Link
          href={`/turns?session=${encodeURIComponent(row.sessionId)}`}
          title={`Only session ${row.sessionId}`}
          className={link}
        >
          {shortId(row.sessionId)}
        </Link>
      </Td>
      <Td className="whitespace-nowrap text-xs">
        <span data-testid="turn-agent" className={row.agent ? undefined : "text-slate-400"}>
          {row.agent ? agentLabel(row.agent) : "unknown"}
        </span>
      </Td>
      <Td className="tabular-nums">
        <Link
          href={href}
          className={link}
          aria-label={`Turn ${row.number} of session ${row.sessionId}`}
        >
          #{row.number}
        </Link>
      </Td>
      <Td className="max-w-md">
        <Link
          href={href}
          className="block truncate text-slate-800 hover:text-indigo-600 hover:underline"
          title={row.prompt}
        >
          {row.prompt || <span className="italic text-slate-400">no prompt</span>}
        </Link>
      </Td>
      <Td>
        <TotalBar
          normalized={row.normalizedTotal}
          weighted={row.weightedTotal}
          max={row.maxTotal}
        />
      </Td>
      <Td className="whitespace-nowrap text-xs">
        {lowest ? (
          <>
            {lowest.principle}{" "}
            <span className="tabular-nums text-slate-500">{formatUnit(lowest.score)}</span>
          </>
        ) : (
          <span className="text-slate-400">all 1.000</span>
        )}
      </Td>
      <Td>{row.overridden ? <Badge tone="amber">overridden</Badge> : null}</Td>
    </tr>
  );
}
