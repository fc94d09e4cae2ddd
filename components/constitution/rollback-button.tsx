"use client";
import { useState } from "react";
import { Button, ErrorText, Input } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import { rollbackConstitutionAction } from "@/lib/actions/rollback-constitution";

/** Rolls back to `toVersionId` as a new version, after a confirm step with an optional message. */
export function RollbackButton({ toVersionId, baseVersionId }: { toVersionId: number; baseVersionId: number }) {
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState("");
  const rollback = useAction(rollbackConstitutionAction, { onSuccess: () => setConfirming(false) });

  if (rollback.data) {
    return (
      <p role="status" className="text-sm text-emerald-700">
        Rolled back: version {rollback.data.versionId} is now current.
      </p>
    );
  }
  if (!confirming) {
    return (
      <Button variant="secondary" onClick={() => setConfirming(true)}>
        Roll back to this version
      </Button>
    );
  }
  return (
    <form
      aria-label={`Roll back to version ${toVersionId}`}
      className="space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        rollback.mutate({ toVersionId, baseVersionId, message: message.trim() || undefined });
      }}
    >
      <p className="text-sm text-slate-700">Make version {toVersionId} current again? This saves its content as a new version; history is kept.</p>
      <Input aria-label="Rollback message" placeholder={`Roll back to version ${toVersionId}`} value={message} onChange={(e) => setMessage(e.target.value)} />
      <div className="flex gap-2">
        <Button type="submit" variant="danger" disabled={rollback.isPending}>
          {rollback.isPending ? "Rolling back…" : "Confirm rollback"}
        </Button>
        <Button variant="ghost" onClick={() => setConfirming(false)}>
          Cancel
        </Button>
      </div>
      {rollback.isError ? <ErrorText>{rollback.error.message}</ErrorText> : null}
    </form>
  );
}
