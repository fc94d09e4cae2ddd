/**
 * LlmPort over the official openai SDK. No Next imports: the CLI uses it too. Each component
 * gets one OpenAI client per endpoint and key, made on first use and shared after, so its HTTP
 * connections stay alive between calls. Every call is reported to the sink, success or not.
 */
import { createHash } from "node:crypto";
import OpenAI, { APIConnectionTimeoutError, APIError } from "openai";
import {
  LlmCallError,
  LlmTimeoutError,
  type ChatMessage,
  type LlmPort,
  type LlmRequest,
  type LlmResponse,
} from "@/lib/constitution/llm-port";
import type { LlmCallRecord, LlmCallSink } from "./types";

export type { LlmCallKey, LlmCallOutcome, LlmCallRecord, LlmCallSink } from "./types";

export type LlmClientConfig = {
  baseURL?: string;
  apiKey: string;
  log?: LlmCallSink;
  maxRetries?: number;
};

/** Used when no baseURL is given, so the SDK never falls back to reading OPENAI_BASE_URL itself. */
export const OPENAI_BASE_URL = "https://api.openai.com/v1";

type Pooled = { client: OpenAI; created: number; reused: number };

/** Process-wide: endpoint key (baseURL + sha256 of the API key) → component → client. */
const pool = new Map<string, Map<string, Pooled>>();

/** sha256 hex of a text. */
export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** sha256 hex of JSON.stringify(messages): the prompt's identity in the call log. */
export function promptHash(messages: ChatMessage[]): string {
  return sha256(JSON.stringify(messages));
}

/** Calls into a sink must never break a model call, so whatever the sink throws is dropped here. */
export function quietly(report: () => void): void {
  try {
    report();
  } catch {
    // The sink is diagnostics only.
  }
}

/** The innermost error `code` (ECONNREFUSED, UND_ERR_SOCKET…) under a connection failure, if any. */
function causeCode(error: unknown): string | undefined {
  let code: string | undefined;
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if ("code" in e && typeof e.code === "string") code = e.code;
  }
  return code;
}

/** Any failure of a call as the port's errors: LlmTimeoutError once the deadline passed, else LlmCallError (with the HTTP status if any). */
export function toLlmError(
  error: unknown,
  timeoutMs: number,
  deadlinePassed: boolean,
): LlmTimeoutError | LlmCallError {
  if (error instanceof LlmCallError) return error;
  if (deadlinePassed || error instanceof APIConnectionTimeoutError)
    return new LlmTimeoutError(timeoutMs);
  if (error instanceof APIError) {
    const code = error.status === undefined ? causeCode(error) : undefined;
    return new LlmCallError(code ? `${error.message} (${code})` : error.message, error.status);
  }
  return new LlmCallError(error instanceof Error ? error.message : String(error));
}

const endpointKeyOf = (baseURL: string, apiKey: string) => `${baseURL}\n${sha256(apiKey)}`;

/** The shared OpenAI client of one component on one endpoint and key, made on first use. */
export function pooledClient(
  endpoint: { baseURL?: string; apiKey: string; maxRetries?: number },
  component: string,
): OpenAI {
  const baseURL = endpoint.baseURL ?? OPENAI_BASE_URL;
  const endpointKey = endpointKeyOf(baseURL, endpoint.apiKey);
  const clients = pool.get(endpointKey) ?? new Map<string, Pooled>();
  pool.set(endpointKey, clients);
  const pooled = clients.get(component);
  if (pooled) {
    pooled.reused++;
    return pooled.client;
  }
  const client = new OpenAI({
    apiKey: endpoint.apiKey,
    baseURL,
    organization: null,
    project: null,
    maxRetries: endpoint.maxRetries ?? 0,
  });
  clients.set(component, { client, created: 1, reused: 0 });
  return client;
}

/** An LlmPort on the openai SDK: json asks for a json_object reply, timeouts reject with LlmTimeoutError, everything else with LlmCallError. */
export function createLlmClient(config: LlmClientConfig): LlmPort {
  const baseURL = config.baseURL ?? OPENAI_BASE_URL;
  const maxRetries = config.maxRetries ?? 0;
  const endpointKey = endpointKeyOf(baseURL, config.apiKey);
  const sink = config.log;
  const clientFor = (component: string) =>
    pooledClient({ baseURL, apiKey: config.apiKey, maxRetries }, component);

  async function complete(request: LlmRequest): Promise<LlmResponse> {
    const { component, model, messages, json, timeoutMs, runId, requestId } = request;
    const started = performance.now();
    const base = { component, model, promptHash: promptHash(messages), runId, requestId };
    const report = (
      call: Omit<LlmCallRecord, keyof typeof base | "latencyMs" | "at">,
      latencyMs: number,
    ) => quietly(() => sink?.record({ ...base, ...call, latencyMs, at: new Date() }));
    // The SDK's own timeout stops at the response headers; this deadline also covers reading the body.
    const deadline = AbortSignal.timeout(timeoutMs);
    try {
      const completion = await clientFor(component).chat.completions.create(
        { model, messages, ...(json ? { response_format: { type: "json_object" as const } } : {}) },
        { timeout: timeoutMs, maxRetries, signal: deadline },
      );
      const choice = completion.choices[0];
      if (!choice) throw new LlmCallError("The model answered with no choices.");
      const usage = completion.usage
        ? {
            promptTokens: completion.usage.prompt_tokens,
            completionTokens: completion.usage.completion_tokens,
            totalTokens: completion.usage.total_tokens,
          }
        : null;
      const latencyMs = Math.round(performance.now() - started);
      report(
        {
          outcome: "ok",
          promptTokens: usage?.promptTokens ?? null,
          completionTokens: usage?.completionTokens ?? null,
        },
        latencyMs,
      );
      return {
        text: choice.message.content ?? "",
        model: completion.model || model,
        latencyMs,
        usage,
      };
    } catch (error) {
      const failure = toLlmError(error, timeoutMs, deadline.aborted);
      const outcome = failure instanceof LlmTimeoutError ? "timeout" : "error";
      report(
        { outcome, error: failure.message, promptTokens: null, completionTokens: null },
        Math.round(performance.now() - started),
      );
      throw failure;
    }
  }

  return {
    complete,
    recordParse(key, contract) {
      quietly(() => sink?.recordParse?.(key, contract));
    },
    poolingStats() {
      const clients = pool.get(endpointKey) ?? new Map<string, Pooled>();
      return Object.fromEntries(
        [...clients].map(([component, { created, reused }]) => [component, { created, reused }]),
      );
    },
  };
}
