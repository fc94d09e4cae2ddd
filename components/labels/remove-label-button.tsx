"use client";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { ErrorText } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import { removeLabelAction } from "@/lib/actions/remove-label";

/**
 * Removes one reviewed label, as a new version without its case. A version saved since
 * the page was shown refuses it (nothing removed); the refreshed list then shows the
 * version in force.
 */
export function RemoveLabelButton({
  prompt,
  versionId,
  row,
}: {
  prompt: string;
  versionId: number;
  row: number;
}) {
  const remove = useAction(removeLabelAction);
  return (
    <div className="space-y-1">
      <ConfirmButton
        label={`Remove label ${row}`}
        question="Remove this label's eval case? It is saved as a new version; earlier versions keep it."
        confirmLabel="Remove the case"
        pendingLabel="Removing…"
        pending={remove.isPending}
        onConfirm={() => remove.mutateAsync({ prompt, baseVersionId: versionId })}
      >
        Remove
      </ConfirmButton>
      {remove.error ? (
        <ErrorText>
          {remove.error.message}
          {remove.error.error.code === "conflict"
            ? " The list now shows the version in force."
            : ""}
        </ErrorText>
      ) : null}
    </div>
  );
}
