import { fieldIssuesOf, type ActionError } from "@/lib/actions/result";
import type { ConstitutionIssue } from "@/lib/constitution/schema";

/** The reasons reported for `field` or anything inside it (`keywords` covers `keywords[2]`), joined for one input. */
export function issueText(issues: readonly ConstitutionIssue[], field: string): string | undefined {
  const reasons = issues
    .filter(
      (i) =>
        i.field === field || i.field.startsWith(`${field}[`) || i.field.startsWith(`${field}.`),
    )
    .map((i) => i.reason);
  return reasons.length ? [...new Set(reasons)].join("; ") : undefined;
}

/** Only the issues reported exactly at `field`. */
export function exactIssueText(
  issues: readonly ConstitutionIssue[],
  field: string,
): string | undefined {
  const reasons = issues.filter((i) => i.field === field).map((i) => i.reason);
  return reasons.length ? [...new Set(reasons)].join("; ") : undefined;
}

/** The field issues of a refusal that locate a constitution problem (file, line, column). */
export function locatedIssues(error: ActionError | null | undefined): ConstitutionIssue[] {
  return fieldIssuesOf(error).flatMap(({ file, line, column, field, reason }) =>
    file !== undefined && line !== undefined && column !== undefined
      ? [{ file, line, column, field: field ?? "(file)", reason: reason ?? "is invalid" }]
      : [],
  );
}

/** Issues from both lists, each once. */
export function mergeIssues(
  a: readonly ConstitutionIssue[],
  b: readonly ConstitutionIssue[],
): ConstitutionIssue[] {
  const seen = new Set<string>();
  return [...a, ...b].filter((i) => {
    const key = `${i.file}:${i.line}:${i.column}:${i.field}:${i.reason}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
