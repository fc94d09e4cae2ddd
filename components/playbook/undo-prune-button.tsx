"use client";
import { Button } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import { undoPruneAction } from "@/lib/actions/undo-prune";
import { ActionError } from "@/components/ui/action-error";

/** Restores a pruned key point with its counts and history. */
export function UndoPruneButton({ name }: { name: string }) {
  const undo = useAction(undoPruneAction);
  return (
    <div className="space-y-1">
      <Button
        variant="secondary"
        disabled={undo.isPending}
        onClick={() => undo.mutate({ name })}
        aria-label={`Undo pruning ${name}`}
      >
        {undo.isPending ? "Restoring…" : "Undo"}
      </Button>
      <ActionError failure={undo.error} />
    </div>
  );
}
