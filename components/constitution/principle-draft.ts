import { LineCounter, parseDocument } from "yaml";
import { principleInputSchema, type Principle } from "@/lib/constitution/schema";

/**
 * A principle in a form: every field as the text the person typed, so a bad value
 * (a priority of "150", an empty title) survives into the YAML and the engine reports
 * it where it is, instead of the form silently dropping it. Shared by the overlay and
 * core forms.
 */
export type PrincipleDraft = {
  key: string;
  id: string;
  level: string;
  priority: string;
  title: string;
  rule: string;
  examplesAllow: string;
  examplesDeny: string;
  remediation: string;
  keywords: string;
  /** A core principle's domain label (moralstack writes `domain: core`); empty for none, unused in overlays. */
  domain: string;
};

/** A file read into a form, or the reason the form cannot hold it. */
export type DraftRead<D> = { ok: true; draft: D } | { ok: false; reason: string };

let nextKey = 0;
/** A React list key for a new row. */
export const rowKey = (): string => `row-${++nextKey}`;

export const emptyPrinciple = (): PrincipleDraft => ({
  key: rowKey(),
  id: "",
  level: "soft",
  priority: "50",
  title: "",
  rule: "",
  examplesAllow: "",
  examplesDeny: "",
  remediation: "",
  keywords: "",
  domain: "",
});

/** The fields a principle may have: the engine's schema's, so the form never drifts from it. */
const PRINCIPLE_FIELDS = new Set(Object.keys(principleInputSchema.shape));

/** Thrown while reading YAML into a draft: the value has a shape the form cannot hold. */
export class Unrepresentable extends Error {}

export const isMapping = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export function scalar(value: unknown, field: string): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  throw new Unrepresentable(`${field} must be a single value`);
}

export function list(value: unknown, field: string): string[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw new Unrepresentable(`${field} must be a list`);
  return value.map((v, i) => scalar(v, `${field}[${i}]`));
}

export function flag(value: unknown, field: string): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value !== "boolean") throw new Unrepresentable(`${field} must be true or false`);
  return value;
}

/**
 * Reads one principle at `at`. `domain` is the overlay it belongs to, whose name it may
 * repeat; a core principle (null) may carry any domain as a label, kept in the draft.
 */
export function principleDraft(value: unknown, at: string, domain: string | null): PrincipleDraft {
  if (!isMapping(value)) throw new Unrepresentable(`${at} must be a mapping (key: value pairs)`);
  for (const key of Object.keys(value))
    if (!PRINCIPLE_FIELDS.has(key)) throw new Unrepresentable(`${at}.${key} is not a known field`);
  if (
    domain !== null &&
    value.domain !== undefined &&
    value.domain !== null &&
    value.domain !== domain
  )
    throw new Unrepresentable(`${at}.domain must be ${domain} or left out`);
  const keywords = [
    ...list(value.keywords, `${at}.keywords`),
    ...list(value.keywords_block, `${at}.keywords_block`),
    ...list(value.keywords_style, `${at}.keywords_style`),
  ];
  return {
    key: rowKey(),
    id: scalar(value.id, `${at}.id`),
    level: scalar(value.level, `${at}.level`),
    priority: scalar(value.priority, `${at}.priority`),
    title: scalar(value.title, `${at}.title`),
    rule: scalar(value.rule, `${at}.rule`),
    examplesAllow: list(value.examples_allow, `${at}.examples_allow`).join("\n"),
    examplesDeny: list(value.examples_deny, `${at}.examples_deny`).join("\n"),
    remediation: scalar(value.remediation, `${at}.remediation`),
    keywords: keywords.join(", "),
    domain: domain === null ? scalar(value.domain, `${at}.domain`) : "",
  };
}

/**
 * Reads YAML text as a mapping and hands it to `read`; a syntax error, a non-mapping or
 * an `Unrepresentable` thrown by `read` becomes the reason the form cannot hold the text.
 */
export function readMapping<D>(
  text: string,
  read: (value: Record<string, unknown>) => D,
): DraftRead<D> {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const syntax = doc.errors[0];
  if (syntax)
    return {
      ok: false,
      reason: `line ${lines.linePos(syntax.pos[0]).line}: ${syntax.message.split("\n")[0] ?? "invalid YAML"}`,
    };
  const value: unknown = doc.toJS();
  try {
    if (!isMapping(value))
      throw new Unrepresentable("the file must be a mapping (key: value pairs)");
    return { ok: true, draft: read(value) };
  } catch (error) {
    if (error instanceof Unrepresentable) return { ok: false, reason: error.message };
    throw error;
  }
}

/** Fails when `value` has a key outside `fields`. */
export function onlyFields(value: Record<string, unknown>, fields: ReadonlySet<string>): void {
  for (const key of Object.keys(value))
    if (!fields.has(key)) throw new Unrepresentable(`${key} is not a known field`);
}

export const splitList = (text: string, separator: string | RegExp): string[] =>
  text
    .split(separator)
    .map((s) => s.trim())
    .filter(Boolean);

// A typed number becomes a number; anything else stays text, so the engine names it
// ("must be a number") instead of the form losing it. Hence the cast: the value is
// only serialized and validated, never used as a priority.
export function numberOrText(text: string): number {
  const trimmed = text.trim();
  const n = Number(trimmed);
  return (trimmed !== "" && Number.isFinite(n) ? n : trimmed) as number;
}

/** The principle a form row describes, as the serializer takes it; `domain` is its overlay's, or null in core (where the row's label is kept). */
export function draftToPrinciple(p: PrincipleDraft, domain: string | null): Principle {
  return {
    id: p.id.trim(),
    level: p.level as Principle["level"],
    priority: numberOrText(p.priority),
    title: p.title,
    rule: p.rule,
    examples_allow: splitList(p.examplesAllow, "\n"),
    examples_deny: splitList(p.examplesDeny, "\n"),
    remediation: p.remediation,
    domain: domain ?? (p.domain.trim() || null),
    keywords: splitList(p.keywords, ","),
  };
}
