import { LevelBadge } from "@/components/constitution/level-badge";
import { Badge, Table, Td } from "@/components/ui/primitives";
import type { RetrievedPrinciple } from "@/lib/constitution/store";
import { ConfidenceBar } from "./confidence-bar";

/** Retrieved principles in the order returned: conflict (precedence) order, the prevailing first. */
export function RetrievedPrinciples({ principles }: { principles: RetrievedPrinciple[] }) {
  return (
    <Table head={["#", "Id", "Level", "Priority", "Title", "Confidence", "Domain", "Source"]} empty={principles.length === 0 ? <p className="px-3 py-4 text-sm text-slate-500">No principle was retrieved.</p> : null}>
      {principles.map((p, i) => (
        <tr key={p.id} data-testid={`retrieved-${p.id}`}>
          <Td className="tabular-nums text-slate-500">{i + 1}</Td>
          <Td className="whitespace-nowrap font-mono text-xs">{p.id}</Td>
          <Td>
            <LevelBadge level={p.level} />
          </Td>
          <Td className="tabular-nums">{p.priority}</Td>
          <Td>{p.title}</Td>
          <Td>
            <ConfidenceBar value={p.confidence} />
          </Td>
          <Td>{p.domain ?? <span className="text-slate-500">core</span>}</Td>
          <Td>
            <Badge tone={p.source === "llm" ? "indigo" : "slate"}>{p.source}</Badge>
          </Td>
        </tr>
      ))}
    </Table>
  );
}
