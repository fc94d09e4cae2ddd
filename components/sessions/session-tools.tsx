import { PrincipleChips } from "@/components/principles/principle-chips";
import { Badge, Table, Td } from "@/components/ui/primitives";
import { Time } from "@/components/ui/time";
import { ToolCallDetails } from "@/components/turns/tool-call-details";
import type { SessionToolCall } from "./types";

/** The session's tool calls in order: success by the credit-assignment spec's rule, the turn, the principles active then, its input and output. */
export function SessionTools({
  calls,
  titles,
}: {
  calls: SessionToolCall[];
  titles: Map<string, string>;
}) {
  if (calls.length === 0)
    return <p className="text-sm text-slate-500">No tools were used in this session.</p>;
  return (
    <Table head={["Tool", "Result", "Turn", "At", "Active principles", "Input and output"]}>
      {calls.map((call) => (
        <tr key={call.id} data-testid={`tool-${call.id}`}>
          <Td className="font-medium text-slate-900">{call.name}</Td>
          <Td>
            {call.succeeded ? (
              <Badge tone="green">succeeded</Badge>
            ) : (
              <Badge tone="red">failed</Badge>
            )}
          </Td>
          <Td className="tabular-nums">#{call.turnNumber}</Td>
          <Td className="whitespace-nowrap text-xs">
            <Time value={call.at} />
          </Td>
          <Td>
            <PrincipleChips ids={call.activePrinciples} titles={titles} />
          </Td>
          <Td className="w-full min-w-0">
            <ToolCallDetails input={call.input} output={call.output} />
          </Td>
        </tr>
      ))}
    </Table>
  );
}
