import { z } from "zod";

/**
 * Seed 003 (Principle Success Criteria): the session state the credit engine reads,
 * and what it produces. Keys are snake_case or camelCase exactly as the seed has them.
 */
export const FEEDBACK_TYPES = ["explicit_positive", "explicit_negative", "implicit_continuation", "implicit_retry", "neutral"] as const;

export const userFeedbackSchema = z.object({
  sentiment: z.number().min(0).max(1),
  type: z.enum(FEEDBACK_TYPES),
  confidence: z.number().min(0).max(1),
  prompt_index: z.number().int().min(0),
  matched_patterns: z.array(z.string()).optional(),
});
export type UserFeedback = z.infer<typeof userFeedbackSchema>;

export const sessionToolCallSchema = z.object({
  tool: z.string().min(1, "must name the tool"),
  input: z.record(z.string(), z.unknown()).default({}),
  output: z.unknown().optional(),
  timestamp: z.string().default(""),
  succeeded: z.boolean(),
  active_principles: z.array(z.string()).optional(),
  prompt_index: z.number().int().min(0).default(0),
});
export type SessionToolCall = z.output<typeof sessionToolCallSchema>;

/** Seed 003's SessionState. */
export const sessionStateSchema = z.object({
  sessionId: z.string().min(1),
  startTime: z.string().default(""),
  prompts: z.array(z.string()).default([]),
  injectedPrinciples: z.array(z.string()).default([]),
  toolCalls: z.array(sessionToolCallSchema).default([]),
  userFeedback: z.array(userFeedbackSchema).default([]),
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
export type EnrichedOutcome = { status: OutcomeStatus; score: number; signals: OutcomeSignals; principle_credits: PrincipleCredit[] };
