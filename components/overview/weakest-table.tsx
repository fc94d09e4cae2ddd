import { Table, Td } from "@/components/ui/primitives";
import { formatUnit } from "@/lib/format";
import type { PrincipleAverage } from "@/lib/schemas/stats-rows";
import { PRINCIPLE_QUESTIONS } from "@/lib/reward";

/** The principles by their average score over the last 7 days, lowest first. */
export function WeakestTable({ rows }: { rows: PrincipleAverage[] }) {
  if (rows.length === 0)
    return <p className="text-sm text-slate-500">No turns were scored in the last 7 days.</p>;
  return (
    <Table head={["Principle", "Question", "Average"]}>
      {rows.map((row) => (
        <tr key={row.principle} data-testid={`weakest-${row.principle}`}>
          <Td className="font-medium text-slate-900">{row.principle}</Td>
          <Td className="text-slate-600">{PRINCIPLE_QUESTIONS[row.principle]}</Td>
          <Td className="tabular-nums">{formatUnit(row.average)}</Td>
        </tr>
      ))}
    </Table>
  );
}
