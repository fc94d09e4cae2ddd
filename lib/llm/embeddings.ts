/**
 * EmbeddingPort over the official openai SDK (`/v1/embeddings` of any OpenAI-compatible
 * endpoint). Shares the chat client's pooling, timeouts, errors and call log: each request
 * is one record of component "embeddings", whose prompt hash is that of its input texts.
 */
import { LlmCallError, LlmTimeoutError } from "@/lib/constitution/llm-port";
import type { EmbeddingPort } from "@/lib/constitution/semantic";
import { pooledClient, quietly, sha256, toLlmError } from "./client";
import type { LlmCallSink } from "./types";

export const EMBEDDINGS_COMPONENT = "embeddings";

/** The most texts sent in one request (OpenAI accepts up to 2048; smaller batches keep each request well inside a timeout). */
export const EMBEDDING_BATCH_SIZE = 128;

export type EmbeddingClientConfig = {
  baseURL?: string;
  apiKey: string;
  model: string;
  /** The caller is answered LlmTimeoutError after this long. */
  timeoutMs: number;
  /**
   * How much longer a request that timed out may run in the background to finish its answer,
   * so that its keep-alive connection goes back to the pool instead of being destroyed (under
   * load, every timed-out prompt would otherwise cost the next one a new connection). 0, the
   * default: the request is abandoned at `timeoutMs`.
   */
  backgroundMs?: number;
  log?: LlmCallSink;
  maxRetries?: number;
  batchSize?: number;
};

/** Requests that timed out and are finishing in the background, by the controller that ends them. */
const late = new Set<AbortController>();

/** How many requests that timed out are still finishing in the background. */
export function lateRequests(): number {
  return late.size;
}

/** Ends every request finishing in the background (a command that has answered need not wait for them). */
export function abandonLateRequests(): void {
  for (const controller of late) controller.abort();
  late.clear();
}

/** The vectors of a reply in input order, or LlmCallError when the reply does not give exactly one numeric vector per input. */
function vectorsOf(reply: unknown, count: number): number[][] {
  const data = (reply as { data?: unknown } | null)?.data;
  if (!Array.isArray(data))
    throw new LlmCallError("The embeddings endpoint answered without a data list.");
  if (data.length !== count)
    throw new LlmCallError(
      `The embeddings endpoint returned ${data.length} vectors for ${count} texts.`,
    );
  const vectors: number[][] = new Array(count);
  for (const item of data as { index?: unknown; embedding?: unknown }[]) {
    const { index, embedding } = item ?? {};
    if (
      typeof index !== "number" ||
      !Number.isInteger(index) ||
      index < 0 ||
      index >= count ||
      vectors[index]
    ) {
      throw new LlmCallError(
        `The embeddings endpoint returned a vector with a bad or repeated index (${JSON.stringify(index)}).`,
      );
    }
    if (
      !Array.isArray(embedding) ||
      embedding.length === 0 ||
      !embedding.every((x) => typeof x === "number" && Number.isFinite(x))
    ) {
      throw new LlmCallError(
        `The embeddings endpoint returned a vector at index ${index} that is not a non-empty list of numbers.`,
      );
    }
    vectors[index] = embedding;
  }
  return vectors;
}

/** An EmbeddingPort on the openai SDK: batches of at most `batchSize` texts, one after another; timeouts reject with LlmTimeoutError, everything else with LlmCallError. */
export function createEmbeddingClient(config: EmbeddingClientConfig): EmbeddingPort {
  const { model, timeoutMs, log: sink } = config;
  const backgroundMs = config.backgroundMs ?? 0;
  const maxRetries = config.maxRetries ?? 0;
  const batchSize = config.batchSize ?? EMBEDDING_BATCH_SIZE;

  async function request(texts: string[], requestId: string | undefined): Promise<number[][]> {
    const started = performance.now();
    const base = {
      component: EMBEDDINGS_COMPONENT,
      model,
      promptHash: sha256(JSON.stringify(texts)),
      requestId,
      completionTokens: null,
    };
    const report = (call: {
      outcome: "ok" | "timeout" | "error";
      promptTokens: number | null;
      error?: string;
    }) =>
      quietly(() =>
        sink?.record({
          ...base,
          ...call,
          latencyMs: Math.round(performance.now() - started),
          at: new Date(),
        }),
      );
    // The SDK's own timeout stops at the response headers; this deadline also covers reading
    // the body. Either destroys the connection, so with `backgroundMs` they are set that much
    // later, and the caller's timeout is a timer that leaves the request running.
    const abandonAfter = timeoutMs + backgroundMs;
    const controller = new AbortController();
    const deadline = AbortSignal.any([AbortSignal.timeout(abandonAfter), controller.signal]);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let timedOut = false;
    try {
      const client = pooledClient(
        { baseURL: config.baseURL, apiKey: config.apiKey, maxRetries },
        EMBEDDINGS_COMPONENT,
      );
      // "float": left unset, the SDK asks for base64 and decodes whatever comes back as such,
      // which garbles the plain lists that some OpenAI-compatible servers always send.
      const call = client.embeddings.create(
        { model, input: texts, encoding_format: "float" },
        { timeout: abandonAfter, maxRetries, signal: deadline },
      );
      const reply =
        backgroundMs === 0
          ? await call
          : await Promise.race([
              call,
              new Promise<never>((_, reject) => {
                timer = setTimeout(() => {
                  timedOut = true;
                  late.add(controller);
                  void call.then(
                    () => late.delete(controller),
                    () => late.delete(controller),
                  );
                  reject(new LlmTimeoutError(timeoutMs));
                }, timeoutMs);
              }),
            ]);
      const vectors = vectorsOf(reply, texts.length);
      report({ outcome: "ok", promptTokens: reply.usage?.prompt_tokens ?? null });
      return vectors;
    } catch (error) {
      const failure = toLlmError(error, timeoutMs, timedOut || deadline.aborted);
      report({
        outcome: failure instanceof LlmTimeoutError ? "timeout" : "error",
        promptTokens: null,
        error: failure.message,
      });
      throw failure;
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    model,
    async embed(texts, ctx = {}) {
      const vectors: number[][] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        vectors.push(...(await request(texts.slice(start, start + batchSize), ctx.requestId)));
      }
      return vectors;
    },
  };
}
