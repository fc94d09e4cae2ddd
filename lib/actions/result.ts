import type { ConflictDetails, ErrorBody, FieldIssue } from "@/lib/errors";

/** What every server action returns: data, or an error the form can show. */
export type ActionError = ErrorBody;
export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: ActionError };

/** The per-field problems of a refusal (only `invalid_input` carries them). */
export function fieldIssuesOf(error: ActionError | null | undefined): FieldIssue[] {
  return error?.code === "invalid_input" ? (error.details ?? []) : [];
}

/** The message for `field` from a refusal's field issues, if any. */
export function fieldMessage(
  error: ActionError | null | undefined,
  field: string,
): string | undefined {
  return fieldIssuesOf(error).find((issue) => issue.path === field)?.message;
}

/** The version a conflict names as current, or null when it names none. */
export function conflictVersionOf(error: ActionError | null | undefined): number | null {
  return error?.code === "conflict" ? (error.details?.currentVersionId ?? null) : null;
}

export type { ConflictDetails, FieldIssue };
