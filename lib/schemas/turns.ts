import { z } from "zod";
import { agentFilterSchema, KNOWN_AGENTS, UNKNOWN_AGENT } from "./agents";
import {
  PRINCIPLES,
  principleSchema,
  unitScore,
  weightsSchema,
  type Principle,
} from "@/lib/reward/schema";
import {
  QUERY_DATE_MAX,
  QUERY_DATE_MIN,
  queryDaySchema,
  queryInstantSchema,
  queryTextSchema,
  QUERY_INSTANT_MAX_MS,
} from "./query";

/** A reviewer's override of one principle on one turn: shared by the form and the action. */
export const overrideScoreSchema = z.object({
  turnId: z.string().min(1),
  principle: principleSchema,
  value: unitScore,
  reason: z.string().trim().min(3, "Say why (at least 3 characters).").max(1000),
});

/** A new weight set: every principle's weight, and why. */
export const saveWeightsSchema = z.object({
  weights: weightsSchema,
  message: z.string().trim().min(1, "Say why the weights change.").max(500),
});

/** A keyset cursor: the last row's scored_at and turn id, so pages stay fast however deep. */
export const turnCursorValueSchema = z.strictObject({
  scoredAt: queryInstantSchema,
  turnId: queryTextSchema(200),
});
export type TurnCursor = z.infer<typeof turnCursorValueSchema>;

/** base64url of UTF-8 JSON, decoded without Buffer so that browser code can import this file. */
function fromBase64Url(text: string): unknown {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
}

/** A `next` value of `GET /api/v1/turns`, decoded: anything else is refused, never passed to the database. */
export const turnCursorSchema = z
  .string()
  .max(1000)
  .transform((text, ctx) => {
    let value: unknown;
    try {
      value = fromBase64Url(text);
    } catch {
      value = undefined;
    }
    const cursor = turnCursorValueSchema.safeParse(value);
    if (cursor.success) return cursor.data;
    ctx.addIssue({ code: "custom", message: "is not the `next` value of a page" });
    return z.NEVER;
  });

/** Filters of the Turns table, as URL search params. */
export const turnFiltersSchema = z.object({
  session: queryTextSchema(200)
    .optional()
    .describe(
      "Only this session's turns. A NUL (U+0000) is refused: stored ids hold U+FFFD in its place.",
    ),
  from: queryDaySchema
    .optional()
    .describe(`Turns scored on or after this UTC day (${QUERY_DATE_MIN} to ${QUERY_DATE_MAX}).`),
  to: queryDaySchema
    .optional()
    .describe(`Turns scored on or before this UTC day (${QUERY_DATE_MIN} to ${QUERY_DATE_MAX}).`),
  min: z.coerce
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe("Only turns whose normalized total is at least this (0 to 1)."),
  max: z.coerce
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe("Only turns whose normalized total is at most this (0 to 1)."),
  principle: principleSchema
    .optional()
    .describe("With `below`: the principle whose score is compared."),
  below: z.coerce
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe("With `principle`: only turns where that principle's score is below this (0 to 1)."),
  agent: agentFilterSchema
    .optional()
    .describe(
      `Only turns of sessions reported by this agent (${KNOWN_AGENTS.join(", ")}, or another name an event gave); \`${UNKNOWN_AGENT}\` for sessions that named none.`,
    ),
  cursor: turnCursorSchema
    .optional()
    .describe("The `next` value of the previous page; anything else is refused."),
});

const DAY_MS = 86_400_000;

/** The instants of a from/to day filter: `from`'s midnight (UTC), and the end of `to`'s whole day, exclusive (capped at the last representable instant). */
export function dayRange(days: { from?: string; to?: string }): { from?: Date; to?: Date } {
  return {
    from: days.from ? new Date(`${days.from}T00:00:00.000Z`) : undefined,
    to: days.to
      ? new Date(Math.min(Date.parse(`${days.to}T00:00:00.000Z`) + DAY_MS, QUERY_INSTANT_MAX_MS))
      : undefined,
  };
}

/** An instant on the wire: an ISO 8601 string in UTC; a Date to the code that answers with it. */
const isoInstant = z.codec(z.iso.datetime(), z.date(), {
  decode: (text) => new Date(text),
  encode: (date) => date.toISOString(),
});

/** One row of `GET /api/v1/turns` (TurnListRow of ./turn-rows.ts). */
export const turnListRowSchema = z.strictObject({
  id: z.string(),
  sessionId: z.string(),
  agent: z
    .string()
    .nullable()
    .describe(
      "The agent the session's events named (claude-code, codex, ...); null when none did.",
    ),
  number: z.number().int(),
  prompt: z.string().describe("The prompt's first 200 characters."),
  scoredAt: isoInstant,
  weightedTotal: z.number(),
  maxTotal: z.number(),
  normalizedTotal: z.number(),
  scores: z.strictObject(
    Object.fromEntries(PRINCIPLES.map((p) => [p, z.number()])) as Record<Principle, z.ZodNumber>,
  ),
  overridden: z.boolean().describe("A reviewer overrode at least one score."),
});

/** A page of `GET /api/v1/turns`: newest first, and the `next` cursor (`null` on the last page). */
export const turnsPageSchema = z.strictObject({
  rows: z.array(turnListRowSchema),
  next: z.string().nullable().describe("Pass as `cursor` for the next page; `null` on the last."),
});
