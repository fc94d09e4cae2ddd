/**
 * What the engine needs from a language model, as plain types. lib/llm implements it
 * with the openai SDK; tests can implement it with a table. The engine never imports
 * an SDK or does I/O itself.
 */
export type ChatMessage = { role: "system" | "user" | "assistant"; content: string };

export type LlmRequest = {
  /** Which component is calling: each component keeps one HTTP client ("prefilter", "domain_agent", "reflector"). */
  component: string;
  model: string;
  messages: ChatMessage[];
  /** Ask for `response_format: {type: "json_object"}`. */
  json: boolean;
  /** Abort and reject with LlmTimeoutError after this long. */
  timeoutMs: number;
  /** Correlation ids recorded with the call. */
  runId?: string;
  requestId?: string;
};

export type LlmUsage = { promptTokens: number; completionTokens: number; totalTokens: number };

export type LlmResponse = {
  text: string;
  model: string;
  latencyMs: number;
  usage: LlmUsage | null;
};

/** How a reply was parsed: which parser succeeded, which failed and why (recorded in the call log). */
export type ParseContract = {
  parser: string | null;
  failures: { parser: string; reason: string }[];
};

export interface LlmPort {
  complete(request: LlmRequest): Promise<LlmResponse>;
  /** Records how the reply of an earlier call was parsed (the call log keeps it beside the call). */
  recordParse?(
    requestKey: { component: string; requestId?: string; runId?: string },
    contract: ParseContract,
  ): void;
  /** Client pooling counts per component, for debug info. */
  poolingStats(): Record<string, { created: number; reused: number }>;
}

/** Thrown by an LlmPort when a call exceeds its timeout. */
export class LlmTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`The model did not answer within ${timeoutMs} ms.`);
    this.name = "LlmTimeoutError";
  }
}

/** Thrown by an LlmPort when the endpoint answers with an error or cannot be reached. */
export class LlmCallError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "LlmCallError";
  }
}

/** What went wrong with a call, as the debug info's fallbacks say it. */
export function failureReason(error: unknown): string {
  if (error instanceof LlmTimeoutError) return `timeout: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/** Runs `tasks` with at most `limit` in flight (the domain agents); results keep the tasks' order. */
export async function pool<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}
