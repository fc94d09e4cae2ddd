import { MAX_TOOL_OUTPUT } from "@/lib/schemas/events";
import { normalizeText } from "@/lib/schemas/text";

/** The first `max` characters and how many were cut; a surrogate pair cut in half becomes U+FFFD (PostgreSQL refuses half a pair). */
function cut(text: string, max: number): string {
  return text.length > max
    ? `${normalizeText(text.slice(0, max))}… [truncated ${text.length - max} characters]`
    : text;
}

/** Text kept up to MAX_TOOL_OUTPUT characters, with how much was cut. */
export function truncate(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return cut(typeof value === "string" ? value : JSON.stringify(value), MAX_TOOL_OUTPUT);
}

/**
 * A tool's input kept like its output: up to MAX_TOOL_OUTPUT characters of JSON. A
 * larger input keeps its short fields (file paths, commands: what credit reads) and
 * says what it cut; strings longer than a tenth of the limit are shortened first.
 */
export function capToolInput(input: unknown): unknown {
  if (input === undefined || input === null) return null;
  const text = JSON.stringify(input);
  if (text.length <= MAX_TOOL_OUTPUT) return input;
  if (typeof input !== "object" || Array.isArray(input))
    return { _truncated: text.length, preview: normalizeText(text.slice(0, MAX_TOOL_OUTPUT)) };
  const field = MAX_TOOL_OUTPUT / 10;
  const kept: Record<string, unknown> = {};
  let size = 0;
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    const short = typeof value === "string" ? cut(value, field) : value;
    const length = JSON.stringify(short)?.length ?? 0;
    if (size + length > MAX_TOOL_OUTPUT) continue;
    kept[key] = short;
    size += length + key.length;
  }
  return { ...kept, _truncated: text.length };
}
