/**
 * What a Codex tool call's output says, as PostToolUse sends it. Codex writes an output as
 * a string (plain text; the JSON `{output, metadata: {exit_code, duration_seconds}}` of its
 * shell tools; or a text whose header states `Exit code: N` or `Process exited with code
 * N` above `Output:`), or as content items (codex-rs/protocol/src/models.rs,
 * FunctionCallOutputPayload; codex-rs/core/src/tools/mod.rs, format_exec_output_*).
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A JSON text's value, or the text itself when it is no JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The exit code a shell output states in its header (`Exit code: N`, `Process exited with code N`), above `Output:`. */
function statedExitCode(text: string): number | null {
  const lines = text.split("\n");
  const end = lines.indexOf("Output:");
  if (end < 0) return null;
  for (const line of lines.slice(0, end)) {
    const m = /^(?:Exit code:|Process exited with code) (-?\d+)\s*$/.exec(line);
    if (m) return Number(m[1]);
  }
  return null;
}

/**
 * A tool output as PostToolUse sends it: its text, behind `Error: ` when the call failed.
 * Codex writes it as a string (plain, or the JSON `{output, metadata: {exit_code}}` of
 * its shell tools), or as content items.
 */
export function codexToolResponse(output: unknown): string {
  let text: string;
  let code: number | null = null;
  let failed = false;
  if (typeof output === "string") {
    const envelope = output.trimStart().startsWith("{") ? parseJson(output) : undefined;
    if (isObject(envelope) && typeof envelope.output === "string") {
      text = envelope.output;
      const exit = isObject(envelope.metadata) ? envelope.metadata.exit_code : undefined;
      code = typeof exit === "number" ? exit : null;
    } else {
      text = output;
      code = statedExitCode(text);
    }
  } else if (Array.isArray(output)) {
    text = output
      .map((c: unknown) =>
        isObject(c) && typeof c.text === "string" ? c.text : isObject(c) ? `[${c.type}]` : "",
      )
      .join("\n");
    code = statedExitCode(text);
  } else if (isObject(output)) {
    text = codexToolResponse(output.content ?? "");
    failed = output.success === false || output.isError === true;
  } else {
    text = JSON.stringify(output ?? "");
  }
  if (code !== null && code !== 0) return `Error: exit code ${code}\n${text}`;
  if (text.trim() === "aborted") return "Error: aborted";
  return failed && !text.startsWith("Error: ") ? `Error: ${text}` : text;
}
