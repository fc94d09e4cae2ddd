"use client";
import { useState } from "react";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { ErrorText, Input } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import { rollbackConstitutionAction } from "@/lib/actions/rollback-constitution";

/** Rolls back to `toVersionId` as a new version, after an inline confirm with an optional message. */
export function RollbackButton({
  toVersionId,
  baseVersionId,
}: {
  toVersionId: number;
  baseVersionId: number;
}) {
  const [message, setMessage] = useState("");
  const rollback = useAction(rollbackConstitutionAction);

  if (rollback.data) {
    return (
      <p role="status" className="text-sm text-emerald-700">
        Rolled back: version {rollback.data.versionId} is now current.
      </p>
    );
  }
  return (
    <div className="space-y-2">
      <ConfirmButton
        variant="danger"
        question={`Make version ${toVersionId} current again? This saves its content as a new version; history is kept.`}
        details={
          <Input
            aria-label="Rollback message"
            placeholder={`Roll back to version ${toVersionId}`}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
          />
        }
        confirmLabel="Confirm rollback"
        pendingLabel="Rolling back…"
        pending={rollback.isPending}
        onConfirm={() =>
          rollback.mutateAsync({ toVersionId, baseVersionId, message: message.trim() || undefined })
        }
      >
        Roll back to this version
      </ConfirmButton>
      {rollback.isError ? <ErrorText>{rollback.error.message}</ErrorText> : null}
    </div>
  );
}
