import { Badge, Table, Td } from "@/components/ui/primitives";
import { Time } from "@/components/ui/time";
import { formatWeighted } from "@/lib/format";
import type { WeightSetRow } from "@/lib/schemas/weight-rows";
import { PRINCIPLES } from "@/lib/reward";

/** Every weight set, newest (in force) first. */
export function WeightHistory({ sets }: { sets: WeightSetRow[] }) {
  return (
    <Table head={["Set", "Weights", "Max total", "Author", "Message", "Saved"]}>
      {sets.map((set, i) => (
        <tr key={set.id} data-testid={`weight-set-${set.id}`}>
          <Td className="whitespace-nowrap">
            <span className="font-medium text-slate-900">{set.id}</span>{" "}
            {i === 0 ? <Badge tone="green">in force</Badge> : null}
          </Td>
          <Td>
            <ul className="flex flex-wrap gap-x-3 gap-y-0.5 text-xs">
              {PRINCIPLES.map((p) => (
                <li key={p} className="whitespace-nowrap">
                  <span className="text-slate-500">{p}</span>{" "}
                  <span className="tabular-nums text-slate-900">
                    {formatWeighted(set.weights[p] ?? 1)}
                  </span>
                </li>
              ))}
            </ul>
          </Td>
          <Td className="tabular-nums">{formatWeighted(set.maxTotal)}</Td>
          <Td>{set.authorLabel}</Td>
          <Td>{set.message}</Td>
          <Td className="whitespace-nowrap">
            <Time value={set.createdAt} />
          </Td>
        </tr>
      ))}
    </Table>
  );
}
