import { ConfirmButton } from "@/components/ui/confirm-button";
import { Badge } from "@/components/ui/primitives";
import { EvaluationList } from "./evaluation-list";
import { PRUNE_RULE, ruleWithCounts } from "./format";
import type { ProposalView } from "./types";
import { approveQuestion, rejectQuestion } from "./use-prune-decisions";

type Props = {
  proposal: ProposalView;
  /** Present for approvers: selection and per-row decisions. */
  decide?: {
    selected: boolean;
    onSelect: (selected: boolean) => void;
    onApprove: () => Promise<void>;
    onReject: () => Promise<void>;
    pending: boolean;
  };
};

/** One prune proposal: the text, the counts against the rule, and the rating events behind them. */
export function ProposalItem({ proposal: p, decide }: Props) {
  return (
    <li
      data-testid={`proposal-${p.name}`}
      data-name={p.name}
      className="grid gap-3 py-4 md:grid-cols-[auto_1fr_20rem_auto]"
    >
      <div className="pt-0.5">
        {decide ? (
          <input
            type="checkbox"
            aria-label={`Select ${p.name}`}
            checked={decide.selected}
            onChange={(e) => decide.onSelect(e.target.checked)}
            className="h-4 w-4"
          />
        ) : null}
      </div>
      <div className="min-w-0 space-y-1">
        <p className="font-mono text-xs text-slate-500">{p.name}</p>
        <p className="whitespace-pre-wrap break-words text-sm text-slate-800">{p.text}</p>
        <p className="text-xs text-slate-600" data-testid="counts">
          helpful <strong className="tabular-nums">{p.helpful}</strong>, harmful{" "}
          <strong className="tabular-nums">{p.harmful}</strong>
        </p>
        <p className="text-xs text-slate-600" data-testid="rule">
          Rule: <code>{PRUNE_RULE}</code>, here <code>{ruleWithCounts(p)}</code>{" "}
          {p.meetsRule ? (
            <Badge tone="amber">meets the rule</Badge>
          ) : (
            <Badge tone="slate">no longer meets the rule</Badge>
          )}
        </p>
      </div>
      <EvaluationList events={p.events} eventCount={p.eventCount} counted={p.helpful + p.harmful} />
      {decide ? (
        <div className="flex items-start gap-2">
          <ConfirmButton
            variant="danger"
            pending={decide.pending}
            label={`Approve pruning ${p.name}`}
            question={approveQuestion([p.name])}
            confirmLabel="Prune it"
            pendingLabel="Pruning…"
            onConfirm={decide.onApprove}
          >
            Approve
          </ConfirmButton>
          <ConfirmButton
            variant="secondary"
            pending={decide.pending}
            label={`Reject pruning ${p.name}`}
            question={rejectQuestion([p.name])}
            confirmLabel="Keep it"
            pendingLabel="Keeping…"
            onConfirm={decide.onReject}
          >
            Reject
          </ConfirmButton>
        </div>
      ) : (
        <span />
      )}
    </li>
  );
}
