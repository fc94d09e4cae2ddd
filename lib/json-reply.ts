/**
 * Tolerant parsing of model replies that should be one JSON object. Pure: the engine
 * uses it, so no I/O and no SDK. Every attempt is recorded in a ParseContract so the
 * call log can say how a reply was read.
 */
import type { z } from "zod";
import type { ParseContract } from "@/lib/constitution/llm-port";
import { issueLines } from "@/lib/errors";

export type ParseResult<T> =
  { ok: true; value: T; contract: ParseContract } | { ok: false; contract: ParseContract };

type Attempt = { ok: true; value: Record<string, unknown> } | { ok: false; reason: string };

/** The parsers, in the order they are tried. */
export const JSON_REPLY_PARSERS = ["json", "fenced", "balanced_object"] as const;

/** Failure reasons are cut to one line of at most this many characters. */
export const MAX_REASON_LENGTH = 120;
const FENCE = /```(?:json)?[ \t]*\r?\n?([\s\S]*?)```/i;

function shorten(reason: string): string {
  const line = reason.split("\n")[0] ?? "";
  return line.length > MAX_REASON_LENGTH ? `${line.slice(0, MAX_REASON_LENGTH - 1)}…` : line;
}

function kindOf(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
}

function parseObject(text: string): Attempt {
  let value: unknown;
  try {
    value = JSON.parse(text.trim());
  } catch (error) {
    return { ok: false, reason: shorten(error instanceof Error ? error.message : String(error)) };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { ok: false, reason: `not an object but ${kindOf(value)}` };
  return { ok: true, value: value as Record<string, unknown> };
}

function fenced(text: string): Attempt {
  const block = FENCE.exec(text)?.[1];
  return block === undefined ? { ok: false, reason: "no fenced block" } : parseObject(block);
}

/** Index of the `}` closing the `{` at `start`, skipping braces inside strings; -1 if it never closes. */
function closingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "{") depth++;
    else if (ch === "}" && --depth === 0) return i;
  }
  return -1;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text.trim());
    return true;
  } catch {
    return false;
  }
}

/**
 * The first balanced `{...}` that is valid JSON; scanning resumes after a failed candidate, so it stays
 * linear. A reply (or fenced block) that is whole JSON but not an object is refused rather than mined
 * for its first element: an array of answers is not one answer.
 */
function balancedObject(text: string): Attempt {
  const block = FENCE.exec(text)?.[1];
  if (isJson(text) || (block !== undefined && isJson(block)))
    return { ok: false, reason: "the reply is JSON but not an object" };
  let start = text.indexOf("{");
  if (start < 0) return { ok: false, reason: "no '{' in the reply" };
  let reason = "unbalanced braces";
  while (start >= 0) {
    const end = closingBrace(text, start);
    if (end < 0) break;
    const attempt = parseObject(text.slice(start, end + 1));
    if (attempt.ok) return attempt;
    reason = attempt.reason;
    start = text.indexOf("{", end + 1);
  }
  return { ok: false, reason };
}

const PARSERS: Record<(typeof JSON_REPLY_PARSERS)[number], (text: string) => Attempt> = {
  json: parseObject,
  fenced,
  balanced_object: balancedObject,
};

/** Reads a JSON object from a reply, trying "json", "fenced", then "balanced_object"; the contract names the winner and every failure. */
export function parseJsonObject(text: string): ParseResult<Record<string, unknown>> {
  const failures: ParseContract["failures"] = [];
  for (const parser of JSON_REPLY_PARSERS) {
    const attempt = PARSERS[parser](text);
    if (attempt.ok) return { ok: true, value: attempt.value, contract: { parser, failures } };
    failures.push({ parser, reason: attempt.reason });
  }
  return { ok: false, contract: { parser: null, failures } };
}

/** parseJsonObject, then the schema; a schema failure keeps the extracting parser in the contract and adds a "schema" failure. */
export function parseWith<T>(text: string, schema: z.ZodType<T>): ParseResult<T> {
  const parsed = parseJsonObject(text);
  if (!parsed.ok) return parsed;
  const checked = schema.safeParse(parsed.value);
  if (checked.success) return { ok: true, value: checked.data, contract: parsed.contract };
  const reason = issueLines(checked.error.issues.slice(0, 3)).join("; ");
  return {
    ok: false,
    contract: {
      ...parsed.contract,
      failures: [...parsed.contract.failures, { parser: "schema", reason: shorten(reason) }],
    },
  };
}
