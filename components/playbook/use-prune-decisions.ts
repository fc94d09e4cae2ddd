"use client";
import { useAction } from "@/components/ui/use-action";
import { approvePruneAction } from "@/lib/actions/approve-prune";
import { rejectPruneAction } from "@/lib/actions/reject-prune";

const list = (names: string[]) => names.join(", ");

/** Approve and reject, each behind a confirm dialog; `onDone` runs after either succeeds. */
export function usePruneDecisions(onDone: () => void) {
  const approve = useAction(approvePruneAction, { onSuccess: onDone });
  const reject = useAction(rejectPruneAction, { onSuccess: onDone });
  return {
    pending: approve.isPending || reject.isPending,
    failure: approve.error ?? reject.error,
    approve(names: string[]) {
      if (names.length === 0) return;
      reject.reset();
      if (window.confirm(`Prune ${list(names)}? Agents stop getting ${names.length === 1 ? "it" : "them"}; you can undo this under "Recently pruned".`)) approve.mutate({ names });
    },
    reject(names: string[]) {
      if (names.length === 0) return;
      approve.reset();
      if (window.confirm(`Keep ${list(names)}? ${names.length === 1 ? "It stays" : "They stay"} active and ${names.length === 1 ? "is" : "are"} proposed again only if the harmful count grows.`)) reject.mutate({ names });
    },
  };
}
