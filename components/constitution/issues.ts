import type { ConstitutionIssue } from "@/lib/constitution/schema";

/** The reasons reported for `field` or anything inside it (`keywords` covers `keywords[2]`), joined for one input. */
export function issueText(issues: readonly ConstitutionIssue[], field: string): string | undefined {
  const reasons = issues.filter((i) => i.field === field || i.field.startsWith(`${field}[`) || i.field.startsWith(`${field}.`)).map((i) => i.reason);
  return reasons.length ? [...new Set(reasons)].join("; ") : undefined;
}

/** Only the issues reported exactly at `field`. */
export function exactIssueText(issues: readonly ConstitutionIssue[], field: string): string | undefined {
  const reasons = issues.filter((i) => i.field === field).map((i) => i.reason);
  return reasons.length ? [...new Set(reasons)].join("; ") : undefined;
}

/** A server action's refusal details, as constitution issues when they carry a location. */
export function issuesFromDetails(details: unknown): ConstitutionIssue[] {
  if (!Array.isArray(details)) return [];
  return details.flatMap((d: unknown) => {
    if (typeof d !== "object" || d === null) return [];
    const { file, line, column, field, reason } = d as Record<string, unknown>;
    if (typeof file !== "string" || typeof line !== "number" || typeof column !== "number") return [];
    return [{ file, line, column, field: typeof field === "string" ? field : "(file)", reason: typeof reason === "string" ? reason : "is invalid" }];
  });
}

/** Issues from both lists, each once. */
export function mergeIssues(a: readonly ConstitutionIssue[], b: readonly ConstitutionIssue[]): ConstitutionIssue[] {
  const seen = new Set<string>();
  return [...a, ...b].filter((i) => {
    const key = `${i.file}:${i.line}:${i.column}:${i.field}:${i.reason}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
