"use client";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { ErrorText } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import { revokeApiKeyAction } from "@/lib/actions/revoke-api-key";

export function RevokeApiKeyButton({ id, name }: { id: string; name: string }) {
  const revoke = useAction(revokeApiKeyAction);
  return (
    <div className="space-y-2">
      <ConfirmButton
        label={`Revoke ${name}`}
        question={`Revoke the key "${name}"? Anything using it will be refused from now on.`}
        confirmLabel="Revoke the key"
        pendingLabel="Revoking…"
        pending={revoke.isPending}
        onConfirm={() => revoke.mutateAsync({ id })}
      >
        Revoke
      </ConfirmButton>
      {revoke.isError ? <ErrorText>{revoke.error.message}</ErrorText> : null}
    </div>
  );
}
