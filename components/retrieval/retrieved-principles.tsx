import { LevelBadge } from "@/components/constitution/level-badge";
import { Table, Td } from "@/components/ui/primitives";
import type { RetrievedPrinciple } from "@/lib/constitution/store";
import { formatUnit } from "@/lib/format";
import { ConfidenceBar } from "./confidence-bar";
import { whyText } from "./why";

/** Retrieved principles in the order returned (conflict order, the prevailing first), each with why it was chosen and the characters its line takes. */
export function RetrievedPrinciples({ principles }: { principles: RetrievedPrinciple[] }) {
  return (
    <Table
      head={[
        "#",
        "Id",
        "Level",
        "Priority",
        "Title",
        "Confidence",
        "Domain",
        "Why chosen",
        "Characters",
      ]}
      empty={
        principles.length === 0 ? (
          <p className="px-3 py-4 text-sm text-slate-500">No principle was retrieved.</p>
        ) : null
      }
    >
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
          <Td className="min-w-56 text-xs text-slate-600">
            <span data-testid={`why-${p.id}`} title={`own match ${formatUnit(p.why.own)}`}>
              {whyText(p.why)}
            </span>
          </Td>
          <Td className="tabular-nums">{p.chars}</Td>
        </tr>
      ))}
    </Table>
  );
}
