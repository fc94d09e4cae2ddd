import { Badge, Table, Td } from "@/components/ui/primitives";
import { Time } from "@/components/ui/time";

type Tool = { id: string; name: string; succeeded: boolean; output: string | null; input: unknown; at: Date };

const preClass = "max-h-48 overflow-auto whitespace-pre-wrap break-words rounded bg-slate-50 p-2 font-mono text-xs text-slate-700";

/** The tools a turn ran, in order, with whether each succeeded (seed 003's rule) and what it got and gave. */
export function ToolList({ tools }: { tools: Tool[] }) {
  if (tools.length === 0) return <p className="text-sm text-slate-500">No tools were used in this turn.</p>;
  return (
    <Table head={["Tool", "Result", "At", "Input and output"]}>
      {tools.map((tool) => (
        <tr key={tool.id} data-testid={`tool-${tool.id}`}>
          <Td className="font-medium text-slate-900">{tool.name}</Td>
          <Td>{tool.succeeded ? <Badge tone="green">succeeded</Badge> : <Badge tone="red">failed</Badge>}</Td>
          <Td className="whitespace-nowrap text-xs">
            <Time value={tool.at} />
          </Td>
          <Td className="w-full">
            <details>
              <summary className="cursor-pointer text-xs text-slate-600">show</summary>
              <div className="mt-2 space-y-2">
                {tool.input === null || tool.input === undefined ? null : <pre className={preClass}>{JSON.stringify(tool.input, null, 2)}</pre>}
                {tool.output === null ? <p className="text-xs text-slate-400">no output</p> : <pre className={preClass}>{tool.output}</pre>}
              </div>
            </details>
          </Td>
        </tr>
      ))}
    </Table>
  );
}
