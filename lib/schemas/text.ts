import { z } from "zod";

/**
 * Text and JSON as PostgreSQL can store them. PostgreSQL refuses U+0000 in `text`
 * and `jsonb`, and an unpaired UTF-16 surrogate in `jsonb`; JavaScript strings may
 * hold both. The rule, applied at the edge to every string Charter takes in
 * (including the object keys inside JSON values): each NUL and each unpaired
 * surrogate becomes U+FFFD (the replacement character). It keeps a string's length,
 * so length limits mean the same before and after.
 */
export const REPLACEMENT = "\uFFFD";

/** A NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, "g");

/** One sentence of the rule, for `.describe()` texts and error messages. */
export const TEXT_RULE =
  "NUL characters (U+0000) and unpaired UTF-16 surrogates are replaced by U+FFFD";

/** True when PostgreSQL can store the string as it is (no NUL, no unpaired surrogate). */
export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/** The string with each NUL and each unpaired surrogate replaced by U+FFFD; the same string when there is none. */
export function normalizeText(text: string): string {
  return UNSTORABLE.test(text) ? text.replace(UNSTORABLE_ALL, REPLACEMENT) : text;
}

/** A string taken in from outside, normalized by the rule above (length checks see the same length either way). */
export function inText() {
  return z.string().overwrite(normalizeText);
}

/** Why a string used to look rows up (a filter, a cursor) is refused rather than normalized: a bad link should say so. */
export const UNSTORABLE_MESSAGE =
  "must not contain NUL characters (U+0000) or unpaired UTF-16 surrogates";

/** How deeply a JSON value taken in from outside (`tool_input`, `tool_response`) may nest: `{}` is 1 level, `{"a": []}` 2. */
export const MAX_JSON_DEPTH = 64;

type Container = unknown[] | Record<string, unknown>;

function isContainer(value: unknown): value is Container {
  return typeof value === "object" && value !== null;
}

/**
 * How deeply `value` nests, counted without recursion (a value nested 100,000 deep
 * must not overflow the stack), stopping as soon as it passes `limit`. Also says
 * whether any string or key in it breaks the text rule.
 */
export function inspectJson(value: unknown, limit: number): { depth: number; unstorable: boolean } {
  let depth = 0;
  let unstorable = false;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, level] = stack.pop()!;
    if (typeof node === "string") {
      unstorable ||= !isStorableText(node);
      continue;
    }
    if (!isContainer(node)) continue;
    depth = Math.max(depth, level + 1);
    if (depth > limit) return { depth, unstorable };
    if (Array.isArray(node)) {
      for (const item of node) stack.push([item, level + 1]);
    } else {
      for (const [key, item] of Object.entries(node)) {
        unstorable ||= !isStorableText(key);
        stack.push([item, level + 1]);
      }
    }
  }
  return { depth, unstorable };
}

/**
 * A copy of a JSON value with every string and key normalized. Recursive, so only
 * for values `inspectJson` measured within MAX_JSON_DEPTH. Keys are defined, not
 * assigned, so a `"__proto__"` key stays a plain key. When two keys become equal,
 * the later one wins, as in JSON.parse.
 */
function normalizeJsonValue(value: unknown): unknown {
  if (typeof value === "string") return normalizeText(value);
  if (Array.isArray(value)) return value.map(normalizeJsonValue);
  if (!isContainer(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    Object.defineProperty(out, normalizeText(key), {
      value: normalizeJsonValue(item),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/**
 * Any JSON value taken in from outside: refused when it nests deeper than
 * MAX_JSON_DEPTH (the issue names the field), else returned with the text rule
 * applied to every string and key (the same object when nothing needed it).
 */
export function inJson() {
  return z.unknown().transform((value, ctx) => {
    const { depth, unstorable } = inspectJson(value, MAX_JSON_DEPTH);
    if (depth > MAX_JSON_DEPTH) {
      ctx.addIssue({ code: "custom", message: `nested deeper than ${MAX_JSON_DEPTH} levels` });
      return z.NEVER;
    }
    return unstorable ? normalizeJsonValue(value) : value;
  });
}
