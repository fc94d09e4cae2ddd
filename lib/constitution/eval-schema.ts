import { z } from "zod";
import { domainNameSchema } from "./schema";

/**
 * A constitution's eval set: labelled prompts in `eval/*.yaml`, versioned with the
 * constitution. Each case says which overlay domains apply (none is a normal answer),
 * which principles must be injected (any one of them) and which must not be.
 */

/** The folder of eval files inside a constitution directory. */
export const EVAL_DIR = "eval";

/** A principle id, or an id prefix ending in `*` (forbid lists only). */
const idPattern = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .regex(/^\S+$/, "must not contain spaces");

/**
 * Where a case came from, when a person labelled it in review (a turn, a session or the
 * retrieval playground): who, when, and the turn and session it was read on, if any.
 * Written by Charter when a label is accepted; optional for cases written by hand.
 */
export const evalSourceSchema = z.strictObject(
  {
    kind: z.literal("review", { error: 'must be "review"' }),
    /** The turn whose prompt was labelled. */
    turn_id: z.string({ error: "must be a string" }).trim().min(1, "must not be empty").optional(),
    /** The session of that turn (or the session page the label was made on). */
    session_id: z
      .string({ error: "must be a string" })
      .trim()
      .min(1, "must not be empty")
      .optional(),
    /** The reviewer: an e-mail address or a user id. */
    by: z
      .string({ error: "must be a string (who labelled it)" })
      .trim()
      .min(1, "must not be empty"),
    /** When the label was accepted, as an ISO 8601 date and time. */
    at: z.iso.datetime({
      offset: true,
      error: "must be an ISO 8601 date and time, e.g. 2025-01-31T09:30:00Z",
    }),
  },
  { error: "must be a mapping with kind, by and at (and turn_id or session_id)" },
);
export type EvalSource = z.output<typeof evalSourceSchema>;

export const evalCaseSchema = z.strictObject({
  prompt: z.string({ error: "must be a string (the prompt)" }).trim().min(1, "must not be empty"),
  /** Expected overlay domains, any order; `[]` means that no overlay applies. */
  domains: z.array(domainNameSchema, {
    error: "must be a list of domains ([] when no overlay applies)",
  }),
  /** At least one of these must be injected. */
  expect: z
    .array(idPattern.regex(/^[^*]+$/, "must be a whole id (wildcards are for forbid)"))
    .default([]),
  /** None of these may be injected; `PREFIX.*` matches every id starting with `PREFIX.`. */
  forbid: z.array(idPattern.regex(/^[^*]+\*?$/, "may only end in *")).default([]),
  note: z.string().trim().optional(),
  /** Provenance of a case made from a reviewer's label (eval/reviewed.yaml). */
  source: evalSourceSchema.optional(),
});
export type EvalCase = z.output<typeof evalCaseSchema> & { file: string; line: number };

/** What the eval must reach: `_rate`/`_recall`/`hit` limits are minimums or maximums as listed in THRESHOLDS. */
export const THRESHOLDS = {
  domain_recall_at_1: "min",
  domain_recall_at_3: "min",
  principle_hit_rate: "min",
  false_injection_rate: "max",
  trap_rate: "max",
  mean_principles: "max",
  mean_chars: "max",
} as const;
export type ThresholdName = keyof typeof THRESHOLDS;

const share = z
  .number({ error: "must be a number" })
  .min(0, "must be between 0 and 1")
  .max(1, "must be between 0 and 1");
const count = z.number({ error: "must be a number" }).min(0, "must not be negative");

export const thresholdsSchema = z.strictObject({
  domain_recall_at_1: share.optional(),
  domain_recall_at_3: share.optional(),
  principle_hit_rate: share.optional(),
  false_injection_rate: share.optional(),
  trap_rate: share.optional(),
  mean_principles: count.optional(),
  mean_chars: count.optional(),
});
export type Thresholds = z.output<typeof thresholdsSchema>;

export const evalFileSchema = z.strictObject({
  thresholds: thresholdsSchema.optional(),
  cases: z.array(evalCaseSchema).default([]),
});

/** A whole eval set: every file's cases, and the strictest of their thresholds. */
export type EvalSet = { cases: EvalCase[]; thresholds: Thresholds };

/** Merges thresholds keeping the strictest value of each (highest minimum, lowest maximum). */
export function strictest(all: readonly Thresholds[]): Thresholds {
  const out: Thresholds = {};
  for (const t of all) {
    for (const name of Object.keys(THRESHOLDS) as ThresholdName[]) {
      const value = t[name];
      if (value === undefined) continue;
      const current = out[name];
      out[name] =
        current === undefined
          ? value
          : THRESHOLDS[name] === "min"
            ? Math.max(current, value)
            : Math.min(current, value);
    }
  }
  return out;
}

/** Whether `id` is named by a forbid entry (`X.*` matches any id starting with `X.`). */
export function forbidMatches(entry: string, id: string): boolean {
  return entry.endsWith("*") ? id.startsWith(entry.slice(0, -1)) : id === entry;
}
