"use client";
import { useAction } from "@/components/ui/use-action";
import { approvePruneAction } from "@/lib/actions/approve-prune";
import { rejectPruneAction } from "@/lib/actions/reject-prune";

const list = (names: string[]) => names.join(", ");

/** What approving `names` does, asked before it is done. */
export function approveQuestion(names: string[]): string {
  return `Prune ${list(names)}? Agents stop getting ${names.length === 1 ? "it" : "them"}; you can undo this under "Recently pruned".`;
}

/** What rejecting `names` does, asked before it is done. */
export function rejectQuestion(names: string[]): string {
  return `Keep ${list(names)}? ${names.length === 1 ? "It stays" : "They stay"} active and ${names.length === 1 ? "is" : "are"} proposed again only if the harmful count grows.`;
}

/** Approve and reject, each confirmed inline by the caller (see ConfirmButton); `onDone` runs after either succeeds. */
export function usePruneDecisions(onDone: () => void) {
  const approve = useAction(approvePruneAction, { onSuccess: onDone });
  const reject = useAction(rejectPruneAction, { onSuccess: onDone });
  return {
    pending: approve.isPending || reject.isPending,
    failure: approve.error ?? reject.error,
    async approve(names: string[]) {
      if (names.length === 0) return;
      reject.reset();
      await approve.mutateAsync({ names });
    },
    async reject(names: string[]) {
      if (names.length === 0) return;
      approve.reset();
      await reject.mutateAsync({ names });
    },
  };
}
