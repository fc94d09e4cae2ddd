import { PrincipleChips } from "@/components/principles/principle-chips";
import { Badge, Table, Td } from "@/components/ui/primitives";
import { Time } from "@/components/ui/time";
import type { SessionToolCall } from "./types";

const preClass = "mt-2 max-h-48 overflow-auto whitespace-pre-wrap break-words rounded bg-slate-50 p-2 font-mono text-xs text-slate-700";

/** The session's tool calls in order: success by seed 003's rule, the turn, the principles active then, the output. */
export function SessionTools({ calls, titles }: { calls: SessionToolCall[]; titles: Map<string, string> }) {
  if (calls.length === 0) return <p className="text-sm text-slate-500">No tools were used in this session.</p>;
  return (
    <Table head={["Tool", "Result", "Turn", "At", "Active principles", "Output"]}>
      {calls.map((call) => (
        <tr key={call.id} data-testid={`tool-${call.id}`}>
          <Td className="font-medium text-slate-900">{call.name}</Td>
          <Td>{call.succeeded ? <Badge tone="green">succeeded</Badge> : <Badge tone="red">failed</Badge>}</Td>
          <Td className="tabular-nums">#{call.turnNumber}</Td>
          <Td className="whitespace-nowrap text-xs">
            <Time value={call.at} />
          </Td>
          <Td>
            <PrincipleChips ids={call.activePrinciples} titles={titles} />
          </Td>
          <Td className="w-full">
            {call.output === null ? (
              <span className="text-xs text-slate-400">no output</span>
            ) : (
              <details>
                <summary className="cursor-pointer text-xs text-slate-600">show output</summary>
                <pre className={preClass}>{call.output}</pre>
              </details>
            )}
          </Td>
        </tr>
      ))}
    </Table>
  );
}
