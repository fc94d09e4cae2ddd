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
  // Measured, not written out: a 15 MiB input would otherwise cost a second 15 MiB string.
  const length = jsonLength(input);
  if (length <= MAX_TOOL_OUTPUT) return input;
  if (typeof input !== "object" || Array.isArray(input))
    return {
      _truncated: length,
      preview: normalizeText(jsonPrefix(input, MAX_TOOL_OUTPUT).slice(0, MAX_TOOL_OUTPUT)),
    };
  const field = MAX_TOOL_OUTPUT / 10;
  const kept: Record<string, unknown> = {};
  let size = 0;
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    const short = typeof value === "string" ? cut(value, field) : value;
    const fieldLength = jsonLength(short);
    if (size + fieldLength > MAX_TOOL_OUTPUT) continue;
    kept[key] = short;
    size += fieldLength + key.length;
  }
  return { ...kept, _truncated: length };
}

/** The length of a JSON string literal of `text`, as JSON.stringify writes it, without writing it. */
function stringLiteralLength(text: string): number {
  let length = text.length + 2;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // ", \ and the control characters with a short escape (\b \t \n \f \r); other controls as \u00xx.
    if (code === 0x22 || code === 0x5c || (code >= 0x08 && code <= 0x0d && code !== 0x0b))
      length += 1;
    else if (code < 0x20) length += 5;
    else if (code >= 0xd800 && code <= 0xdfff) {
      // A surrogate pair is written as it is; half of one as \udxxx.
      const next = text.charCodeAt(i + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
      else length += 5;
    }
  }
  return length;
}

/**
 * The members of an array or object as JSON.stringify writes them, one at a time: an
 * array's items (undefined as null) with no key, an object's defined members with theirs.
 */
function* jsonMembers(value: object): Generator<[string | null, unknown]> {
  if (Array.isArray(value)) for (const item of value) yield [null, item ?? null];
  else for (const [key, item] of Object.entries(value)) if (item !== undefined) yield [key, item];
}

/**
 * The length of JSON.stringify(value) for a value parsed from JSON (strings, numbers,
 * booleans, null, arrays and plain objects), counted without building the text.
 */
export function jsonLength(value: unknown): number {
  if (typeof value === "string") return stringLiteralLength(value);
  if (value === null || typeof value !== "object") return JSON.stringify(value)?.length ?? 0;
  let length = 2;
  let first = true;
  for (const [key, item] of jsonMembers(value)) {
    length +=
      (first ? 0 : 1) + (key === null ? 0 : stringLiteralLength(key) + 1) + jsonLength(item);
    first = false;
  }
  return length;
}

/**
 * Text that begins with the first `max` characters of JSON.stringify(value) (or is all
 * of it), written only as far as needed: long strings are cut one character past the
 * budget, so a surrogate pair at the cut is written as JSON.stringify writes it.
 */
function jsonPrefix(value: unknown, max: number): string {
  if (typeof value === "string") return JSON.stringify(value.slice(0, max + 1));
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  const array = Array.isArray(value);
  let text = array ? "[" : "{";
  for (const [key, item] of jsonMembers(value)) {
    if (text.length > max) return text;
    if (text.length > 1) text += ",";
    if (key !== null) text += `${JSON.stringify(key)}:`;
    text += jsonPrefix(item, Math.max(0, max - text.length));
  }
  return text + (array ? "]" : "}");
}
