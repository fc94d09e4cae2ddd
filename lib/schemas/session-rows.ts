import { z } from "zod";
import {
  userFeedbackSchema,
  type outcomeParts,
  type OutcomeSignals,
  type PrincipleCredit,
  type UserFeedback,
} from "@/lib/credit";
import type { ContextDelivery, OutcomeStatusValue } from "./statuses";

/** session_outcome.signals: what the outcome was formed from (the credit-assignment spec's signals). */
export const outcomeSignalsSchema = z.object({
  tool_success_rate: z.number(),
  error_count: z.number(),
  made_edits: z.boolean(),
  edit_count: z.number(),
  files_touched: z.number(),
  user_feedback: z.array(userFeedbackSchema),
  avg_sentiment: z.number(),
  session_continued: z.boolean(),
  prompt_count: z.number(),
}) satisfies z.ZodType<OutcomeSignals>;

/** session_outcome.credits: each injected principle's credit (the credit-assignment spec). */
export const principleCreditsSchema = z.array(
  z.object({ principle_id: z.string(), credit: z.number(), reasoning: z.string() }),
) satisfies z.ZodType<PrincipleCredit[]>;

/** An agent session as stored. */
export type SessionRow = {
  id: string;
  source: string;
  cwd: string | null;
  transcriptPath: string | null;
  /** The agent its events named (lib/schemas/agents.ts), and its version; null when none did. */
  agent: string | null;
  agentVersion: string | null;
  startedAt: Date;
  lastEventAt: Date;
  endedAt: Date | null;
  endReason: string | null;
};

/** One row of the Sessions table. */
export type SessionListRow = Omit<SessionRow, "endReason"> & {
  firstPrompt: string | null;
  turns: number;
  toolCalls: number;
  outcome: { status: OutcomeStatusValue; score: number } | null;
};

/** One prompt of a session, with its feedback and score. */
export type SessionTurn = {
  id: string;
  number: number;
  prompt: string;
  response: string | null;
  startedAt: Date;
  injectedPrinciples: string[];
  injectedKeyPoints: string[];
  retrievedPrinciples: string[];
  contextDelivery: ContextDelivery;
  feedback: UserFeedback | null;
  score: { normalizedTotal: number; weightedTotal: number; maxTotal: number } | null;
};

/** One tool call of a session, with the principles active when it ran. */
export type SessionToolCall = {
  id: string;
  turnNumber: number;
  name: string;
  input: unknown;
  succeeded: boolean;
  activePrinciples: string[];
  at: Date;
  output: string | null;
};

/** A session's outcome and how it was formed. */
export type SessionOutcome = {
  status: OutcomeStatusValue;
  score: number;
  signals: OutcomeSignals;
  parts: ReturnType<typeof outcomeParts>;
  credits: PrincipleCredit[];
  computedAt: Date;
};

/** What the session page shows. */
export type SessionDetail = {
  session: SessionRow;
  turns: SessionTurn[];
  toolCalls: SessionToolCall[];
  outcome: SessionOutcome | null;
};
