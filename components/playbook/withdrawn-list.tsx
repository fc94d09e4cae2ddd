import { Table, Td } from "@/components/ui/primitives";
import { Time } from "@/components/ui/time";
import { ruleWithCounts } from "./format";

/** A proposal taken back because its counts changed: the point, its counts then, when, and what changed them. */
export type WithdrawnView = {
  name: string;
  helpful: number;
  harmful: number;
  at: Date;
  by: string;
};

/** Proposals withdrawn without a person, newest first: the counts no longer met the rule, so the point is back in use. */
export function WithdrawnList({ rows }: { rows: WithdrawnView[] }) {
  return (
    <Table
      head={["Name", "Counts then", "Why", "When", "By"]}
      empty={
        rows.length === 0 ? (
          <p className="px-3 py-6 text-center text-sm text-slate-500">
            No proposal has been withdrawn.
          </p>
        ) : null
      }
    >
      {rows.map((row, i) => (
        <tr key={`${row.name}-${i}`} data-testid={`withdrawn-${row.name}`} data-name={row.name}>
          <Td className="whitespace-nowrap font-mono text-xs">{row.name}</Td>
          <Td className="whitespace-nowrap tabular-nums">
            helpful {row.helpful}, harmful {row.harmful}
          </Td>
          <Td className="text-xs">
            no longer meets the rule: <code>{ruleWithCounts(row)}</code> is false
          </Td>
          <Td className="whitespace-nowrap text-xs">
            <Time value={row.at} />
          </Td>
          <Td className="whitespace-nowrap text-xs">{row.by}</Td>
        </tr>
      ))}
    </Table>
  );
}
