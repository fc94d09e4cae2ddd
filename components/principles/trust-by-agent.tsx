import { Table, Td } from "@/components/ui/primitives";
import { formatCount, formatUnit, formatWeighted } from "@/lib/format";
import { agentLabel } from "@/lib/schemas/agents";
import type { PrincipleDetail } from "./types";

/**
 * A principle's trust from each agent's sessions: whether it earns its keep with every
 * agent a team runs, or with one. Most used first; sessions that named no agent last.
 */
export function TrustByAgent({ rows }: { rows: PrincipleDetail["byAgent"] }) {
  if (rows.length === 0)
    return <p className="text-sm text-slate-500">No session has credited it yet.</p>;
  const sorted = [...rows].sort(
    (a, b) =>
      Number(a.agent === null) - Number(b.agent === null) ||
      b.useCount - a.useCount ||
      (a.agent ?? "").localeCompare(b.agent ?? ""),
  );
  return (
    <Table head={["Agent", "Uses", "Successes", "Smoothed", "Lower bound"]}>
      {sorted.map((row) => (
        <tr key={row.agent ?? "unknown"} data-testid={`trust-agent-${row.agent ?? "unknown"}`}>
          <Td className="whitespace-nowrap">
            {row.agent ? agentLabel(row.agent) : "unknown agent"}
          </Td>
          <Td className="text-right tabular-nums">{formatCount(row.useCount)}</Td>
          <Td className="text-right tabular-nums">{formatWeighted(row.successCount)}</Td>
          <Td className="text-right tabular-nums">{formatUnit(row.smoothed)}</Td>
          <Td className="text-right tabular-nums">{formatUnit(row.lowerBound)}</Td>
        </tr>
      ))}
    </Table>
  );
}
