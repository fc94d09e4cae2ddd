import { Table, Td } from "@/components/ui/primitives";
import { Time } from "@/components/ui/time";
import { UndoPruneButton } from "./undo-prune-button";

export type PrunedView = {
  name: string;
  text: string;
  helpful: number;
  harmful: number;
  prunedAt: Date | null;
};

/** Pruned key points, newest first; approvers can undo a prune. */
export function PrunedTable({ rows, canUndo }: { rows: PrunedView[]; canUndo: boolean }) {
  return (
    <Table
      head={["Name", "Text", "Helpful", "Harmful", "Pruned", ...(canUndo ? [""] : [])]}
      empty={
        rows.length === 0 ? (
          <p className="px-3 py-6 text-center text-sm text-slate-500">Nothing has been pruned.</p>
        ) : null
      }
    >
      {rows.map((row) => (
        <tr key={row.name} data-testid={`pruned-${row.name}`} data-name={row.name}>
          <Td className="whitespace-nowrap font-mono text-xs">{row.name}</Td>
          <Td className="max-w-xl whitespace-pre-wrap break-words">{row.text}</Td>
          <Td className="tabular-nums">{row.helpful}</Td>
          <Td className="tabular-nums">{row.harmful}</Td>
          <Td className="whitespace-nowrap text-xs">
            <Time value={row.prunedAt} />
          </Td>
          {canUndo ? (
            <Td>
              <UndoPruneButton name={row.name} />
            </Td>
          ) : null}
        </tr>
      ))}
    </Table>
  );
}
