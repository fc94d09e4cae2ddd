/** What lib/llm reports about each model call, for the call log. */
import type { ParseContract } from "@/lib/constitution/llm-port";

export type LlmCallOutcome = "ok" | "timeout" | "error";

export type LlmCallRecord = {
  component: string;
  model: string;
  /** sha256 hex of JSON.stringify(messages). */
  promptHash: string;
  latencyMs: number;
  promptTokens: number | null;
  completionTokens: number | null;
  outcome: LlmCallOutcome;
  error?: string;
  runId?: string;
  requestId?: string;
  at: Date;
};

export type LlmCallKey = { component: string; requestId?: string; runId?: string };

/** Receives every call, success or failure. A sink that throws is ignored: logging never breaks a call. */
export interface LlmCallSink {
  record(call: LlmCallRecord): void;
  recordParse?(key: LlmCallKey, contract: ParseContract): void;
}
