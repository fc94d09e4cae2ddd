"use client";
import { Button, ErrorText } from "@/components/ui/primitives";
import { useAction } from "@/components/ui/use-action";
import { reflectSessionAction } from "@/lib/actions/reflect-session";

/** Runs the reflector on this session; without an LLM configured it explains what to set instead. */
export function ReflectButton({
  sessionId,
  llmConfigured,
  noLlmMessage,
}: {
  sessionId: string;
  llmConfigured: boolean;
  noLlmMessage: string;
}) {
  const reflect = useAction(reflectSessionAction);
  if (!llmConfigured) return <p className="text-sm text-slate-600">{noLlmMessage}</p>;
  return (
    <div className="space-y-2">
      <Button onClick={() => reflect.mutate({ sessionId })} disabled={reflect.isPending}>
        {reflect.isPending ? "Reflecting…" : "Run the reflector"}
      </Button>
      {reflect.isError ? <ErrorText>{reflect.error.message}</ErrorText> : null}
      {reflect.data?.status === "failed" ? (
        <ErrorText>The reflector applied nothing: {reflect.data.error}</ErrorText>
      ) : null}
      {reflect.data?.status === "applied" ? (
        <p role="status" className="text-sm text-emerald-700">
          Applied: {reflect.data.added.length} new, {reflect.data.evaluated} rated,{" "}
          {reflect.data.proposed.length} proposed for pruning.
        </p>
      ) : null}
    </div>
  );
}
