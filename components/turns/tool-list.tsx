import { Badge, Table, Td } from "@/components/ui/primitives";
import { Time } from "@/components/ui/time";
import { ToolCallDetails } from "./tool-call-details";

type Tool = {
  id: string;
  name: string;
  succeeded: boolean;
  output: string | null;
  input: unknown;
  at: Date;
};

/** The tools a turn ran, in order, with whether each succeeded (the credit-assignment spec's rule) and what it got and gave. */
export function ToolList({ tools }: { tools: Tool[] }) {
  if (tools.length === 0)
    return <p className="text-sm text-slate-500">No tools were used in this turn.</p>;
  return (
    <Table head={["Tool", "Result", "At", "Input and output"]}>
      {tools.map((tool) => (
        <tr key={tool.id} data-testid={`tool-${tool.id}`}>
          <Td className="font-medium text-slate-900">{tool.name}</Td>
          <Td>
            {tool.succeeded ? (
              <Badge tone="green">succeeded</Badge>
            ) : (
              <Badge tone="red">failed</Badge>
            )}
          </Td>
          <Td className="whitespace-nowrap text-xs">
            <Time value={tool.at} />
          </Td>
          <Td className="w-full min-w-0">
            <ToolCallDetails input={tool.input} output={tool.output} />
          </Td>
        </tr>
      ))}
    </Table>
  );
}
