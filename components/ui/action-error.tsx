import { ErrorText } from "@/components/ui/primitives";
import type { ActionFailure } from "@/components/ui/use-action";
import { fieldIssuesOf } from "@/lib/actions/result";

/** An action's refusal with its per-field details, when the server sent any. */
export function ActionError({ failure }: { failure: ActionFailure | null }) {
  if (!failure) return null;
  const details = fieldIssuesOf(failure.error);
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
