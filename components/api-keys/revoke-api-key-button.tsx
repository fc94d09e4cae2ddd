"use client";
import { Button, ErrorText } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import { revokeApiKeyAction } from "@/lib/actions/revoke-api-key";

export function RevokeApiKeyButton({ id, name }: { id: string; name: string }) {
  const revoke = useAction(revokeApiKeyAction);
  return (
    <>
      <Button
        variant="danger"
        disabled={revoke.isPending}
        onClick={() => {
          if (window.confirm(`Revoke the key "${name}"? Anything using it will be refused from now on.`)) revoke.mutate({ id });
        }}
      >
        Revoke
      </Button>
      {revoke.isError ? <ErrorText>{revoke.error.message}</ErrorText> : null}
    </>
  );
}
