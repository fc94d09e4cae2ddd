/** The credit-assignment spec's failure pattern for a tool's output. */
export const TOOL_FAILURE_PATTERN = /error|failed|exception|denied/i;
/** The credit-assignment spec's Bash rule: a non-zero exit code 1-9 in the output means failure. */
export const BASH_EXIT_FAILURE_PATTERN = /exit code: [1-9]/i;

/**
 * Whether a tool call succeeded (docs/spec/credit-assignment.md, determineToolSuccess): an output that
 * mentions error, failed, exception or denied failed; for Bash, so does an exit
 * code 1-9.
 */
export function determineToolSuccess(toolName: string, output: unknown): boolean {
  const text = typeof output === "string" ? output : (JSON.stringify(output) ?? "");
  if (TOOL_FAILURE_PATTERN.test(text)) return false;
  if (toolName === "Bash" && BASH_EXIT_FAILURE_PATTERN.test(text)) return false;
  return true;
}
