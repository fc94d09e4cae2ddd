"use client";
import { useState } from "react";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { ActionError } from "@/components/ui/action-error";
import { ProposalItem } from "./proposal-item";
import type { ProposalView } from "./types";
import { approveQuestion, rejectQuestion, usePruneDecisions } from "./use-prune-decisions";

/** The prune proposals; approvers select one or many and approve or reject them. */
export function PruneQueue({
  proposals,
  canDecide,
}: {
  proposals: ProposalView[];
  canDecide: boolean;
}) {
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const decisions = usePruneDecisions(() => setPicked(new Set()));
  // A refresh can drop proposals decided elsewhere; only names still in the queue count as selected.
  const selected = proposals.map((p) => p.name).filter((name) => picked.has(name));
  const allSelected = proposals.length > 0 && selected.length === proposals.length;

  if (proposals.length === 0)
    return (
      <p className="text-sm text-slate-500">
        Nothing to decide: no key point meets the prune rule.
      </p>
    );
  return (
    <div className="space-y-3">
      {canDecide ? (
        <div className="flex flex-wrap items-center gap-3 border-b border-slate-100 pb-3">
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              aria-label="Select all proposals"
              checked={allSelected}
              onChange={(e) =>
                setPicked(new Set(e.target.checked ? proposals.map((p) => p.name) : []))
              }
              className="h-4 w-4"
            />
            {selected.length} of {proposals.length} selected
          </label>
          <ConfirmButton
            variant="danger"
            disabled={selected.length === 0}
            pending={decisions.pending}
            question={approveQuestion(selected)}
            confirmLabel={`Prune ${selected.length}`}
            pendingLabel="Pruning…"
            onConfirm={() => decisions.approve(selected)}
          >
            Approve selected
          </ConfirmButton>
          <ConfirmButton
            variant="secondary"
            disabled={selected.length === 0}
            pending={decisions.pending}
            question={rejectQuestion(selected)}
            confirmLabel={`Keep ${selected.length}`}
            pendingLabel="Keeping…"
            onConfirm={() => decisions.reject(selected)}
          >
            Reject selected
          </ConfirmButton>
        </div>
      ) : (
        <p className="text-sm text-slate-500">
          Approvers decide proposals; you can read the evidence.
        </p>
      )}
      <ActionError failure={decisions.failure} />
      <ul className="divide-y divide-slate-100">
        {proposals.map((p) => (
          <ProposalItem
            key={p.name}
            proposal={p}
            decide={
              canDecide
                ? {
                    selected: picked.has(p.name),
                    pending: decisions.pending,
                    onSelect: (on) =>
                      setPicked((prev) => {
                        const next = new Set(prev);
                        if (on) next.add(p.name);
                        else next.delete(p.name);
                        return next;
                      }),
                    onApprove: () => decisions.approve([p.name]),
                    onReject: () => decisions.reject([p.name]),
                  }
                : undefined
            }
          />
        ))}
      </ul>
    </div>
  );
}
