import { createHash } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LlmCallError, LlmTimeoutError } from "@/lib/constitution/llm-port";
import {
  hashVector,
  startScriptedLlmServer,
  type ScriptedEmbeddingScript,
  type ScriptedLlmServer,
} from "@/test/llm-server";
import {
  abandonLateRequests,
  createEmbeddingClient,
  EMBEDDING_BATCH_SIZE,
  lateRequests,
  type EmbeddingClientConfig,
} from "./embeddings";
import type { LlmCallRecord } from "./types";

const servers: ScriptedLlmServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(embeddings: ScriptedEmbeddingScript): Promise<ScriptedLlmServer> {
  const server = await startScriptedLlmServer(() => ({ content: "{}" }), { embeddings });
  servers.push(server);
  return server;
}

function client(server: ScriptedLlmServer, overrides: Partial<EmbeddingClientConfig> = {}) {
  const calls: LlmCallRecord[] = [];
  const port = createEmbeddingClient({
    baseURL: server.url,
    apiKey: "sk-test",
    model: "embed-test",
    timeoutMs: 5_000,
    log: { record: (call) => calls.push(call) },
    ...overrides,
  });
  return { port, calls };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable("the call should have failed"),
    (error: unknown) => error,
  );
}

const texts = (n: number) => Array.from({ length: n }, (_, i) => `text ${i}`);

describe("createEmbeddingClient against a scripted server", () => {
  it("returns one vector per text and asks for floats", async () => {
    const server = await serve(() => ({ vector: (input) => [input.length, 1] }));
    const { port } = client(server);

    expect(port.model).toBe("embed-test");
    expect(await port.embed(["a", "abc"])).toEqual([
      [1, 1],
      [3, 1],
    ]);
    expect(server.embeddingRequests).toMatchObject([
      { model: "embed-test", input: ["a", "abc"], encoding_format: "float" },
    ]);
    expect(server.embeddingRequests[0]?.headers.authorization).toBe("Bearer sk-test");
    expect(server.requests).toEqual([]);
  });

  it(`sends at most ${EMBEDDING_BATCH_SIZE} texts per request, in order`, async () => {
    const server = await serve(() => ({}));
    const input = texts(300);

    const vectors = await client(server).port.embed(input);

    expect(server.embeddingRequests.map((r) => r.input.length)).toEqual([128, 128, 44]);
    expect(server.embeddingRequests.flatMap((r) => r.input)).toEqual(input);
    expect(vectors).toEqual(input.map((t) => hashVector(t)));
  });

  it("orders vectors by index, not by their place in the reply", async () => {
    const server = await serve(() => ({
      reversed: true,
      vector: (input) => [Number(input.split(" ")[1]), 0],
    }));
    expect(await client(server, { batchSize: 2 }).port.embed(texts(3))).toEqual([
      [0, 0],
      [1, 0],
      [2, 0],
    ]);
  });

  it("makes no request for no texts", async () => {
    const server = await serve(() => ({}));
    expect(await client(server).port.embed([])).toEqual([]);
    expect(server.embeddingRequests).toEqual([]);
  });

  it("records each request in the call log as component embeddings", async () => {
    const server = await serve(() => ({ usage: { prompt_tokens: 42 } }));
    const { port, calls } = client(server, { batchSize: 2 });

    await port.embed(texts(3), { requestId: "req-1" });

    expect(calls).toEqual([
      {
        component: "embeddings",
        model: "embed-test",
        promptHash: createHash("sha256")
          .update(JSON.stringify(["text 0", "text 1"]))
          .digest("hex"),
        requestId: "req-1",
        promptTokens: 42,
        completionTokens: null,
        outcome: "ok",
        latencyMs: expect.any(Number),
        at: expect.any(Date),
      },
      expect.objectContaining({
        promptHash: createHash("sha256")
          .update(JSON.stringify(["text 2"]))
          .digest("hex"),
        outcome: "ok",
      }),
    ]);
  });

  it("rejects a slow answer with LlmTimeoutError, not waiting for it, and records it", async () => {
    // The answer would come after a minute: only the port's own 150 ms timeout can end the call sooner.
    const server = await serve(() => ({ delayMs: 60_000 }));
    const { port, calls } = client(server, { timeoutMs: 150 });

    const started = performance.now();
    const error = await rejection(port.embed(["slow"]));

    expect(error).toBeInstanceOf(LlmTimeoutError);
    expect(performance.now() - started).toBeLessThan(60_000);
    expect(calls).toMatchObject([
      { component: "embeddings", outcome: "timeout", promptTokens: null },
    ]);
  });

  describe("a request that times out", () => {
    // The slow answer comes after SLOW_MS; the caller gives up after 100 ms.
    const SLOW_MS = 1_500;
    const slowFirst = () => serve((req) => (req.input[0] === "slow" ? { delayMs: SLOW_MS } : {}));

    it("finishes in the background within backgroundMs, so the next request reuses its connection", async () => {
      const server = await slowFirst();
      const { port, calls } = client(server, { timeoutMs: 100, backgroundMs: 10_000 });

      const started = performance.now();
      expect(await rejection(port.embed(["slow"]))).toBeInstanceOf(LlmTimeoutError);
      expect(performance.now() - started).toBeLessThan(SLOW_MS);
      expect(lateRequests()).toBe(1);
      await vi.waitFor(() => expect(lateRequests()).toBe(0), { timeout: 20_000 });

      expect(await port.embed(["fast"])).toEqual([hashVector("fast")]);
      expect(server.connections()).toBe(1);
      expect(calls.map((c) => c.outcome)).toEqual(["timeout", "ok"]);
    });

    it("without backgroundMs is abandoned at the timeout, its connection with it", async () => {
      const server = await slowFirst();
      const { port } = client(server, { timeoutMs: 100 });

      expect(await rejection(port.embed(["slow"]))).toBeInstanceOf(LlmTimeoutError);
      expect(lateRequests()).toBe(0);

      expect(await port.embed(["fast"])).toEqual([hashVector("fast")]);
      expect(server.connections()).toBeGreaterThan(1);
    });

    it("is ended by abandonLateRequests (a command that answered does not wait for it)", async () => {
      const server = await slowFirst();
      const { port } = client(server, { timeoutMs: 100, backgroundMs: 60_000 });

      expect(await rejection(port.embed(["slow"]))).toBeInstanceOf(LlmTimeoutError);
      expect(lateRequests()).toBe(1);
      abandonLateRequests();
      expect(lateRequests()).toBe(0);

      expect(await port.embed(["fast"])).toEqual([hashVector("fast")]);
      expect(server.connections()).toBeGreaterThan(1);
    });
  });

  it("turns an HTTP error into LlmCallError with the status, and stops at the failing batch", async () => {
    const server = await serve((req) => (req.input[0] === "text 2" ? { status: 503 } : {}));
    const { port, calls } = client(server, { batchSize: 2 });

    const error = await rejection(port.embed(texts(6)));

    expect(error).toBeInstanceOf(LlmCallError);
    expect((error as LlmCallError).status).toBe(503);
    expect(server.embeddingRequests).toHaveLength(2);
    expect(calls.map((c) => c.outcome)).toEqual(["ok", "error"]);
  });

  it.each([
    [
      "too few vectors",
      () => ({
        object: "list",
        data: [{ object: "embedding", index: 0, embedding: [1, 2] }],
        model: "m",
        usage: null,
      }),
      "returned 1 vectors for 2 texts",
    ],
    ["no data list", () => ({ object: "list" }), "answered without a data list"],
    [
      "a text instead of numbers",
      (input: string[]) => ({
        data: input.map((_, index) => ({
          index,
          embedding: index === 1 ? ["0.1", "0.2"] : [0.1, 0.2],
        })),
      }),
      "vector at index 1 that is not a non-empty list of numbers",
    ],
    [
      "an empty vector",
      (input: string[]) => ({ data: input.map((_, index) => ({ index, embedding: [] })) }),
      "vector at index 0 that is not",
    ],
    [
      "a repeated index",
      (input: string[]) => ({ data: input.map(() => ({ index: 0, embedding: [1] })) }),
      "bad or repeated index (0)",
    ],
    [
      "an index out of range",
      (input: string[]) => ({ data: input.map((_, i) => ({ index: i + 1, embedding: [1] })) }),
      "bad or repeated index (2)",
    ],
  ])("refuses a reply with %s", async (_label, body, message) => {
    const server = await serve((req) => ({ body: body(req.input) }));
    const { port, calls } = client(server);

    const error = await rejection(port.embed(["one", "two"]));

    expect(error).toBeInstanceOf(LlmCallError);
    expect((error as Error).message).toContain(message);
    expect(calls).toMatchObject([{ outcome: "error", error: (error as Error).message }]);
  });
});
