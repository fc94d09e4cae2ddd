import { Badge, Table, Td } from "@/components/ui/primitives";
import { PRINCIPLE_QUESTIONS, PRINCIPLES, type ScoreDict } from "@/lib/reward";
import { formatUnit, formatWeighted } from "@/lib/format";

/** Each principle's question, engine score, effective score, weight and contribution to the weighted total. */
export function ScoreTable({
  engine,
  effective,
  weights,
}: {
  engine: ScoreDict;
  effective: ScoreDict;
  weights: Record<string, number>;
}) {
  return (
    <Table head={["Principle", "Question", "Engine", "Effective", "Weight", "Score × weight"]}>
      {PRINCIPLES.map((p) => {
        const weight = weights[p] ?? 1;
        const changed = engine[p] !== effective[p];
        return (
          <tr key={p} data-testid={`score-${p}`}>
            <Td className="font-medium text-slate-900">{p}</Td>
            <Td className="text-slate-600">{PRINCIPLE_QUESTIONS[p]}</Td>
            <Td className="tabular-nums">{formatUnit(engine[p])}</Td>
            <Td className="tabular-nums">
              {formatUnit(effective[p])} {changed ? <Badge tone="amber">override</Badge> : null}
            </Td>
            <Td className="tabular-nums">{formatWeighted(weight)}</Td>
            <Td className="tabular-nums">{formatWeighted(effective[p] * weight)}</Td>
          </tr>
        );
      })}
    </Table>
  );
}
