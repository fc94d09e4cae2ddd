import { z } from "zod";

/**
 * docs/spec/credit-assignment.md (Principle Success Criteria): the session state the credit engine reads,
 * and what it produces. Keys are snake_case or camelCase exactly as the seed has them.
 */
export const FEEDBACK_TYPES = [
  "explicit_positive",
  "explicit_negative",
  "implicit_continuation",
  "implicit_retry",
  "neutral",
] as const;

const unit = z
  .number({ error: "must be a number" })
  .min(0, "must be between 0 and 1")
  .max(1, "must be between 0 and 1");
const list = "must be a list";

export const userFeedbackSchema = z.object({
  sentiment: unit,
  type: z.enum(FEEDBACK_TYPES, { error: `must be one of ${FEEDBACK_TYPES.join(", ")}` }),
  confidence: unit,
  prompt_index: z
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(0, "must not be negative"),
  matched_patterns: z.array(z.string(), { error: list }).optional(),
});
export type UserFeedback = z.infer<typeof userFeedbackSchema>;

/**
 * One tool call of a session. `succeeded` absent or null counts as success (docs/spec/credit-assignment.md:
 * `tc.succeeded !== false`); a call with no tool name counts, as no edit. The fields
 * credit does not read (timestamp, prompt_index) take their default when malformed.
 */
export const sessionToolCallSchema = z.object(
  {
    tool: z.string({ error: "must be a string (the tool's name)" }).default(""),
    input: z.record(z.string(), z.unknown()).default({}),
    output: z.unknown().optional(),
    timestamp: z
      .unknown()
      .optional()
      .transform((v): string => (typeof v === "string" ? v : "")),
    succeeded: z
      .boolean({
        error:
          "must be true or false; leave it out (or null) to count the call as a success, as the credit-assignment spec does",
      })
      .nullish(),
    active_principles: z
      .array(z.string(), { error: "must be a list of principle ids" })
      .nullish()
      .transform((v) => v ?? undefined),
    prompt_index: z
      .unknown()
      .optional()
      .transform((v): number => (typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : 0)),
  },
  { error: "must be an object (a tool call)" },
);
export type SessionToolCall = z.output<typeof sessionToolCallSchema>;

/** The credit-assignment spec's SessionState. */
export const sessionStateSchema = z.object({
  sessionId: z.string({ error: "must be a string" }).min(1, "must not be empty"),
  startTime: z.string().default(""),
  prompts: z.array(z.string({ error: "must be a string" }), { error: list }).default([]),
  injectedPrinciples: z
    .array(z.string({ error: "must be a string (a principle id)" }), { error: list })
    .default([]),
  toolCalls: z.array(sessionToolCallSchema, { error: list }).default([]),
  userFeedback: z.array(userFeedbackSchema, { error: list }).default([]),
});
export type SessionState = z.output<typeof sessionStateSchema>;
export type SessionStateInput = z.input<typeof sessionStateSchema>;

export type OutcomeSignals = {
  tool_success_rate: number;
  error_count: number;
  made_edits: boolean;
  edit_count: number;
  files_touched: number;
  user_feedback: UserFeedback[];
  avg_sentiment: number;
  session_continued: boolean;
  prompt_count: number;
};

export type OutcomeStatus = "success" | "failure" | "partial";
export type PrincipleCredit = { principle_id: string; credit: number; reasoning: string };
export type EnrichedOutcome = {
  status: OutcomeStatus;
  score: number;
  signals: OutcomeSignals;
  principle_credits: PrincipleCredit[];
};
