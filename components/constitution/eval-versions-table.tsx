import Link from "next/link";
import { Badge, cx, Table, Td } from "@/components/ui/primitives";
import { Time } from "@/components/ui/time";
import type { EvalHistoryEntry, EvalRun } from "@/lib/schemas/constitution-rows";
import { formatValue, METRIC_LABELS, METRIC_NAMES } from "./eval-metrics";

const SHORT: Record<(typeof METRIC_NAMES)[number], string> = {
  domain_recall_at_1: "recall@1",
  domain_recall_at_3: "recall@3",
  principle_hit_rate: "hit rate",
  false_injection_rate: "false inj.",
  trap_rate: "traps",
  mean_principles: "principles",
  mean_chars: "chars",
};

function Result({ run }: { run: EvalRun }) {
  if (run.caseCount === 0) return <Badge>no evals</Badge>;
  return run.passed ? <Badge tone="green">passed</Badge> : <Badge tone="red">missed</Badge>;
}

/** Versions newest first with their eval result and metrics; a metric whose threshold was missed is red. Each version links to its detail. */
export function EvalVersionsTable({
  history,
  selected,
}: {
  history: EvalHistoryEntry[];
  selected: number | null;
}) {
  const head = [
    "Version",
    "Saved",
    "Author",
    "Message",
    "Result",
    ...METRIC_NAMES.map((name) => (
      <abbr key={name} title={METRIC_LABELS[name]} className="no-underline">
        {SHORT[name]}
      </abbr>
    )),
  ];
  return (
    <Table head={head}>
      {history.map(({ versionId, createdAt, message, authorLabel, current, run }) => {
        const missed = new Set(run.thresholds.filter((t) => !t.ok).map((t) => t.name));
        return (
          <tr
            key={versionId}
            data-testid={`eval-version-${versionId}`}
            aria-current={versionId === selected ? "true" : undefined}
            className={versionId === selected ? "bg-indigo-50/60" : undefined}
          >
            <Td className="whitespace-nowrap">
              <Link
                href={`/constitution/evals?version=${versionId}`}
                className="font-medium text-indigo-600 hover:underline"
                aria-label={`Version ${versionId} eval details`}
              >
                {versionId}
              </Link>{" "}
              {current ? <Badge tone="green">current</Badge> : null}
            </Td>
            <Td className="whitespace-nowrap">
              <Time value={createdAt} />
            </Td>
            <Td>{authorLabel}</Td>
            <Td className="max-w-xs">{message}</Td>
            <Td className="whitespace-nowrap">
              <Result run={run} />
            </Td>
            {METRIC_NAMES.map((name) => (
              <Td
                key={name}
                className={cx("tabular-nums", missed.has(name) && "font-medium text-red-700")}
              >
                {run.caseCount === 0 ? (
                  <span className="text-slate-400">–</span>
                ) : (
                  formatValue(run.metrics[name])
                )}
              </Td>
            ))}
          </tr>
        );
      })}
    </Table>
  );
}
