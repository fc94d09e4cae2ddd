import { z } from "zod";

/**
 * The constitution's shapes (docs/spec/constitution-store.md, Constitution Store): Principle, Overlay and
 * Constitution. Unknown fields are rejected everywhere, as the seed's
 * `extra="forbid"` models do. Browser forms and the server share these schemas.
 */

export const LEVELS = ["hard", "soft"] as const;
export const levelSchema = z.enum(LEVELS);
export type Level = z.infer<typeof levelSchema>;

/** docs/spec/constitution-store.md: priorities run 1-100, higher is more important. */
export const PRIORITY_MIN = 1;
export const PRIORITY_MAX = 100;

/** The core file's name and the overlays' folder, relative to a constitution directory. */
export const CORE_FILE = "core.yaml";
export const OVERLAYS_DIR = "overlays";

/** A domain name: lower-case words joined by underscores, as the overlay file names are. */
export const domainNameSchema = z
  .string()
  .regex(
    /^[a-z][a-z0-9_]*$/,
    "must be lower-case letters, digits and underscores, starting with a letter",
  );

const text = (what: string) => z.string({ error: `must be a string (the ${what})` }).trim();
const textList = z.array(
  z.string({ error: "must be a list of strings" }).trim().min(1, "must not be empty"),
);

export const prioritySchema = z
  .number({ error: "must be a number" })
  .int("must be a whole number")
  .min(PRIORITY_MIN, `must be between ${PRIORITY_MIN} and ${PRIORITY_MAX}`)
  .max(PRIORITY_MAX, `must be between ${PRIORITY_MIN} and ${PRIORITY_MAX}`);

/** A principle as written in YAML (keywords_block and keywords_style are merged into keywords on load). */
export const principleInputSchema = z.strictObject({
  id: text("principle id").min(1, "must not be empty").regex(/^\S+$/, "must not contain spaces"),
  level: levelSchema,
  priority: prioritySchema,
  title: text("title").min(1, "must not be empty"),
  rule: text("rule").min(1, "must not be empty"),
  examples_allow: textList.default([]),
  examples_deny: textList.default([]),
  remediation: text("remediation").default(""),
  domain: domainNameSchema.nullable().default(null),
  keywords: textList.default([]),
  keywords_block: textList.optional(),
  keywords_style: textList.optional(),
});
export type PrincipleInput = z.input<typeof principleInputSchema>;

/** A loaded principle: the seed's fields, keywords merged and de-duplicated. */
export const principleSchema = principleInputSchema.transform(
  ({ keywords_block, keywords_style, ...p }) => ({
    ...p,
    keywords: mergeKeywords(p.keywords, keywords_block ?? [], keywords_style ?? []),
  }),
);
export type Principle = z.output<typeof principleSchema>;

const COMPARED_FIELDS = [
  "level",
  "priority",
  "title",
  "rule",
  "examples_allow",
  "examples_deny",
  "remediation",
  "keywords",
] as const;

/** The fields in which two definitions of one id differ (the domain aside: in an overlay it is the overlay's own). */
export function differences(a: Principle, b: Principle): string[] {
  return COMPARED_FIELDS.filter((f) => JSON.stringify(a[f]) !== JSON.stringify(b[f]));
}

/** Merges keyword lists keeping first occurrences, case-insensitively. */
export function mergeKeywords(...lists: string[][]): string[] {
  const seen = new Set<string>();
  const merged: string[] = [];
  for (const word of lists.flat()) {
    const key = word.toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      merged.push(word);
    }
  }
  return merged;
}

/** A domain overlay as written in `overlays/<domain>.yaml`; `domain` defaults to the file name. */
export const overlayInputSchema = z.strictObject({
  domain: domainNameSchema.optional(),
  description: text("description").default(""),
  keywords: textList.default([]),
  additional_principles: z.array(principleSchema).default([]),
  priority_overrides: z.record(z.string(), prioritySchema).default({}),
  sensitive: z.boolean().default(false),
  excluded: z.boolean().default(false),
  refusal_redirection: text("refusal redirection").default(""),
  simulator_domain_guidance: text("simulator guidance").default(""),
  sensitive_risk_floor: z
    .number()
    .min(0, "must be between 0 and 1")
    .max(1, "must be between 0 and 1")
    .nullable()
    .default(null),
});
export type OverlayInput = z.input<typeof overlayInputSchema>;
/**
 * A loaded overlay. `defined_at` (set by the parser, absent on overlays built in code) says
 * where each additional principle is written, as `file:line:column`: the same id may be
 * defined in two overlays, and a retrieval that activates both names both places.
 */
export type Overlay = Omit<z.output<typeof overlayInputSchema>, "domain"> & {
  domain: string;
  defined_at?: Record<string, string>;
};

/** `core.yaml`: the principles that hold in every domain (retrieval injects each on its own match). */
export const coreFileSchema = z.strictObject({
  description: text("description").optional(),
  principles: z.array(principleSchema).min(1, "must list at least one principle"),
});

/** A whole constitution: core principles and overlays by domain. */
export type Constitution = {
  description?: string;
  core: Principle[];
  overlays: Record<string, Overlay>;
};

/** The constitution's content alone: its overlays without `defined_at` (where each principle was written). */
export function withoutLocations(c: Constitution): Constitution {
  return {
    ...c,
    overlays: Object.fromEntries(
      Object.entries(c.overlays).map(([d, { defined_at: _, ...o }]) => [d, o]),
    ),
  };
}

/** One problem found while loading, located in its file (1-based line and column). */
export type ConstitutionIssue = {
  file: string;
  line: number;
  column: number;
  field: string;
  reason: string;
};

/**
 * Pydantic's lax reading of an `int` field (what moralstack's loader applies to a
 * priority): a whole number; a number with no fraction (90.0); or text holding one,
 * trimmed, with an optional sign, underscores between digits and a fraction of zeros
 * ("90", " 90 ", "+90", "9_0", "90.0"). Refused like Pydantic refuses them: "90.5",
 * "high", "", "1e2". Booleans, which Pydantic reads as 1 and 0, are refused: a priority
 * of `true` is a mistake, not a number. Returns null for what it refuses.
 */
export function laxInteger(value: unknown): number | null {
  if (typeof value === "number") return Number.isInteger(value) ? value : null;
  if (typeof value !== "string") return null;
  const match = /^([+-]?)(\d+(?:_\d+)*)(?:\.0*)?$/.exec(value.trim());
  if (!match) return null;
  const n = Number(`${match[1]}${match[2]!.replaceAll("_", "")}`);
  return Number.isSafeInteger(n) ? n : null;
}

/** `file:line:column: field: reason`, the form every loading error is shown in. */
export function formatIssue(issue: ConstitutionIssue): string {
  return `${issue.file}:${issue.line}:${issue.column}: ${issue.field}: ${issue.reason}`;
}
