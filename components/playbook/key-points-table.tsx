import { Table, Td } from "@/components/ui/primitives";
import { Time } from "@/components/ui/time";
import { KeyPointText } from "./key-point-text";
import { StatusBadge } from "./status-badge";
import { TrustBar } from "./trust-bar";

export type KeyPointView = {
  name: string;
  text: string;
  helpful: number;
  harmful: number;
  status: string;
  trust: number | undefined;
  lastEvaluatedAt: Date | null;
};

/** The key points with their counts, trust ratio and status; editors edit texts in place. */
export function KeyPointsTable({
  rows,
  canEdit,
  emptyText,
}: {
  rows: KeyPointView[];
  canEdit: boolean;
  emptyText: string;
}) {
  return (
    <Table
      head={["Name", "Text", "Helpful", "Harmful", "Trust", "Status", "Last evaluation"]}
      empty={
        rows.length === 0 ? (
          <p className="px-3 py-6 text-center text-sm text-slate-500">{emptyText}</p>
        ) : null
      }
    >
      {rows.map((row) => (
        <tr
          key={row.name}
          data-testid={`key-point-${row.name}`}
          data-name={row.name}
          data-status={row.status}
        >
          <Td className="whitespace-nowrap font-mono text-xs">{row.name}</Td>
          <Td className="min-w-64 max-w-xl">
            <KeyPointText name={row.name} text={row.text} canEdit={canEdit} />
          </Td>
          <Td className="tabular-nums">
            <span data-testid="helpful">{row.helpful}</span>
          </Td>
          <Td className="tabular-nums">
            <span data-testid="harmful">{row.harmful}</span>
          </Td>
          <Td>
            <TrustBar trust={row.trust} />
          </Td>
          <Td>
            <StatusBadge status={row.status} />
          </Td>
          <Td className="whitespace-nowrap text-xs">
            <Time value={row.lastEvaluatedAt} />
          </Td>
        </tr>
      ))}
    </Table>
  );
}
