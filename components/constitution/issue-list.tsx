import type { ConstitutionIssue } from "@/lib/constitution/schema";

/**
 * Located issues (red, they stop a save) or warnings (amber: the file loads, but something
 * in it is dubious), each as `line:column field: reason`; issues in other files name their file.
 */
export function IssueList({
  issues,
  path,
  title,
  tone = "error",
}: {
  issues: readonly ConstitutionIssue[];
  path: string;
  title: string;
  tone?: "error" | "warning";
}) {
  if (issues.length === 0) return null;
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      aria-label={title}
      className={
        tone === "error"
          ? "rounded-md bg-red-50 px-3 py-2 text-sm text-red-800"
          : "rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900"
      }
    >
      <p className="font-medium">{title}</p>
      <ul className="mt-1 space-y-0.5 font-mono text-xs">
        {issues.map((issue, i) => (
          <li key={i}>
            {issue.file === path ? "" : `${issue.file}:`}
            {issue.line}:{issue.column} {issue.field}: {issue.reason}
          </li>
        ))}
      </ul>
    </div>
  );
}
