import Link from "next/link";
import { CreditBar } from "@/components/sessions/credit-bar";
import { shortId } from "@/components/ui/format";
import { Table, Td } from "@/components/ui/primitives";
import { Time } from "@/components/ui/time";
import type { PrincipleUsage } from "./types";

/** The credits the principle received, newest first: the session, the credit and its reasoning, the version that injected it. */
export function UsageTable({ usage }: { usage: PrincipleUsage[] }) {
  if (usage.length === 0)
    return <p className="text-sm text-slate-500">No session has credited this principle yet.</p>;
  return (
    <Table head={["When", "Session", "Credit", "Reasoning", "Version"]}>
      {usage.map((u) => (
        <tr key={u.id} data-testid={u.sessionId ? `usage-${u.sessionId}` : undefined}>
          <Td className="whitespace-nowrap text-xs">
            <Time value={u.createdAt} />
          </Td>
          <Td className="font-mono text-xs">
            {u.sessionId ? (
              <Link
                href={`/sessions/${encodeURIComponent(u.sessionId)}`}
                title={u.sessionId}
                className="text-indigo-600 hover:underline"
              >
                {shortId(u.sessionId)}
              </Link>
            ) : (
              <span className="text-slate-400">—</span>
            )}
          </Td>
          <Td>
            <CreditBar credit={u.credit} />
          </Td>
          <Td className="font-mono text-xs">
            {u.reasoning ?? <span className="text-slate-400">—</span>}
          </Td>
          <Td className="tabular-nums text-xs">
            {u.constitutionVersionId ?? <span className="text-slate-400">—</span>}
          </Td>
        </tr>
      ))}
    </Table>
  );
}
