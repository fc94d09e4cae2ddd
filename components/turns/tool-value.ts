/** How a tool's input or output is shown: as key/value rows, as text, or as pretty-printed JSON. */
export type ToolValueView =
  | { kind: "empty" }
  | { kind: "text"; text: string }
  | { kind: "rows"; rows: { key: string; text: string; json: boolean }[] }
  | { kind: "json"; text: string };

/** A value longer than this many characters or lines is folded behind a "show" toggle. */
export const FOLD_CHARS = 240;
export const FOLD_LINES = 6;

export function isLong(text: string): boolean {
  return text.length > FOLD_CHARS || text.split("\n").length > FOLD_LINES;
}

/** Text that is a JSON object or array (tool outputs often are) as that value; anything else unchanged. */
function parsedIfJson(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const text = value.trim();
  if (
    !(text.startsWith("{") && text.endsWith("}")) &&
    !(text.startsWith("[") && text.endsWith("]"))
  )
    return value;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return value;
  }
}

function cellText(value: unknown): { text: string; json: boolean } {
  if (typeof value === "string") return { text: value, json: false };
  if (value === null || typeof value !== "object") return { text: String(value), json: false };
  return { text: JSON.stringify(value, null, 2), json: true };
}

/**
 * A tool's input or output made readable: a flat-enough object becomes one row per key
 * (strings as they are, so a command or a file's text keeps its line breaks; nested
 * values pretty-printed), other JSON is pretty-printed, text stays text. Pure.
 */
export function toolValueView(raw: unknown): ToolValueView {
  if (raw === null || raw === undefined || raw === "") return { kind: "empty" };
  const value = parsedIfJson(raw);
  if (typeof value === "string") return { kind: "text", text: value };
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return { kind: "json", text: "{}" };
    return { kind: "rows", rows: entries.map(([key, v]) => ({ key, ...cellText(v) })) };
  }
  return { kind: "json", text: JSON.stringify(value, null, 2) };
}
