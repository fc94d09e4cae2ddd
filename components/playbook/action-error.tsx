import { ErrorText } from "@/components/ui/primitives";
import type { ActionFailure } from "@/components/ui/use-action";

/** An action's refusal with its per-field details, when the server sent any. */
export function ActionError({ failure }: { failure: ActionFailure | null }) {
  if (!failure) return null;
  const details = Array.isArray(failure.error.details)
    ? (failure.error.details as { path: string; message: string }[])
    : [];
  return (
    <ErrorText>
      {failure.message}
      {details.length > 0 ? (
        <span className="mt-1 block space-y-0.5">
          {details.map((d, i) => (
            <span key={i} className="block font-mono text-xs">
              {d.path}: {d.message}
            </span>
          ))}
        </span>
      ) : null}
    </ErrorText>
  );
}

/** Zod issues as "path: message" lines, for errors found before anything is sent. */
export function issueLines(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): string[] {
  return issues.map((i) => `${i.path.map(String).join(".") || "(root)"}: ${i.message}`);
}
