import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import {
  LlmCallError,
  LlmTimeoutError,
  type ChatMessage,
  type LlmRequest,
  type ParseContract,
} from "@/lib/constitution/llm-port";
import {
  DEFAULT_USAGE,
  startScriptedLlmServer,
  type ScriptedLlmServer,
  type ScriptedReply,
  type ScriptedRequest,
} from "@/test/llm-server";
import { createLlmClient } from "./client";
import type { LlmCallKey, LlmCallRecord, LlmCallSink } from "./types";

const MESSAGES: ChatMessage[] = [
  { role: "system", content: "Classify the request into domains. Answer in JSON." },
  { role: "user", content: "Refund my last invoice." },
];

const servers: ScriptedLlmServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(
  script: (req: ScriptedRequest) => ScriptedReply | Promise<ScriptedReply>,
): Promise<ScriptedLlmServer> {
  const server = await startScriptedLlmServer(script);
  servers.push(server);
  return server;
}

function request(overrides: Partial<LlmRequest> = {}): LlmRequest {
  return {
    component: "prefilter",
    model: "gpt-test",
    messages: MESSAGES,
    json: true,
    timeoutMs: 5_000,
    ...overrides,
  };
}

function memorySink() {
  const calls: LlmCallRecord[] = [];
  const parses: { key: LlmCallKey; contract: ParseContract }[] = [];
  const sink: LlmCallSink = {
    record: (call) => calls.push(call),
    recordParse: (key, contract) => parses.push({ key, contract }),
  };
  return { sink, calls, parses };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable("the call should have failed"),
    (error: unknown) => error,
  );
}

describe("createLlmClient against a scripted server", () => {
  it("returns the reply and asks for json_object only when json is set", async () => {
    const server = await serve(() => ({ content: '{"domains": ["billing"]}' }));
    const llm = createLlmClient({ baseURL: server.url, apiKey: "sk-test" });

    const reply = await llm.complete(request());
    await llm.complete(request({ json: false }));

    expect(reply).toMatchObject({ text: '{"domains": ["billing"]}', model: "gpt-test" });
    expect(server.requests.map((r) => r.response_format)).toEqual([
      { type: "json_object" },
      undefined,
    ]);
    expect(server.requests[0]).toMatchObject({ model: "gpt-test", messages: MESSAGES });
    expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-test");
  });

  it("maps usage to tokens", async () => {
    const server = await serve(() => ({
      content: "{}",
      usage: { prompt_tokens: 123, completion_tokens: 45 },
    }));
    const reply = await createLlmClient({ baseURL: server.url, apiKey: "sk-test" }).complete(
      request(),
    );
    expect(reply.usage).toEqual({ promptTokens: 123, completionTokens: 45, totalTokens: 168 });
  });

  it("reports every successful call to the sink with a sha256 prompt hash", async () => {
    const server = await serve(() => ({ content: "{}" }));
    const { sink, calls } = memorySink();
    const llm = createLlmClient({ baseURL: server.url, apiKey: "sk-test", log: sink });

    const reply = await llm.complete(request({ runId: "run-1", requestId: "req-1" }));

    expect(calls).toEqual([
      {
        component: "prefilter",
        model: "gpt-test",
        promptHash: createHash("sha256").update(JSON.stringify(MESSAGES)).digest("hex"),
        latencyMs: reply.latencyMs,
        promptTokens: DEFAULT_USAGE.prompt_tokens,
        completionTokens: DEFAULT_USAGE.completion_tokens,
        outcome: "ok",
        runId: "run-1",
        requestId: "req-1",
        at: expect.any(Date),
      },
    ]);
  });

  it("forwards parse contracts to the sink", () => {
    const { sink, parses } = memorySink();
    const contract: ParseContract = {
      parser: "fenced",
      failures: [{ parser: "json", reason: "Unexpected token" }],
    };
    createLlmClient({ apiKey: "sk-test", log: sink }).recordParse?.(
      { component: "reflector", requestId: "req-2" },
      contract,
    );
    expect(parses).toEqual([{ key: { component: "reflector", requestId: "req-2" }, contract }]);
  });

  it("rejects a slow answer with LlmTimeoutError, not waiting for it, and records it", async () => {
    // The answer would come after a minute: only the client's own 150 ms timeout can end the call sooner.
    const server = await serve(() => ({ content: "{}", delayMs: 60_000 }));
    const { sink, calls } = memorySink();
    const llm = createLlmClient({ baseURL: server.url, apiKey: "sk-test", log: sink });

    const started = performance.now();
    const error = await rejection(llm.complete(request({ timeoutMs: 150 })));
    const elapsed = performance.now() - started;

    expect(error).toBeInstanceOf(LlmTimeoutError);
    expect((error as LlmTimeoutError).timeoutMs).toBe(150);
    expect(elapsed).toBeLessThan(60_000);
    expect(calls).toMatchObject([
      {
        outcome: "timeout",
        error: (error as Error).message,
        promptTokens: null,
        completionTokens: null,
      },
    ]);
  });

  it("turns an HTTP 500 into LlmCallError with the status and records it", async () => {
    const server = await serve(() => ({ status: 500 }));
    const { sink, calls } = memorySink();
    const error = await rejection(
      createLlmClient({ baseURL: server.url, apiKey: "sk-test", log: sink }).complete(request()),
    );

    expect(error).toBeInstanceOf(LlmCallError);
    expect((error as LlmCallError).status).toBe(500);
    expect(calls).toMatchObject([{ outcome: "error", error: expect.stringContaining("500") }]);
    expect(server.requests).toHaveLength(1);
  });

  it("turns a refused connection into LlmCallError without a status", async () => {
    const server = await serve(() => ({ content: "{}" }));
    await server.close();
    const { sink, calls } = memorySink();
    const error = await rejection(
      createLlmClient({ baseURL: server.url, apiKey: "sk-test", log: sink }).complete(request()),
    );

    expect(error).toBeInstanceOf(LlmCallError);
    expect((error as LlmCallError).status).toBeUndefined();
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
    expect(calls).toMatchObject([{ outcome: "error" }]);
  });

  it("makes one client per component and reuses it, and its connections stay alive", async () => {
    const server = await serve(() => ({ content: "{}" }));
    const llm = createLlmClient({ baseURL: server.url, apiKey: "sk-test" });

    for (let i = 0; i < 5; i++) await llm.complete(request());
    await llm.complete(request({ component: "reflector" }));

    expect(llm.poolingStats()).toEqual({
      prefilter: { created: 1, reused: 4 },
      reflector: { created: 1, reused: 0 },
    });
    expect(server.requests).toHaveLength(6);
    expect(server.connections()).toBeLessThan(server.requests.length);
  });

  it("shares the client between ports with the same endpoint and key", async () => {
    const server = await serve(() => ({ content: "{}" }));
    await createLlmClient({ baseURL: server.url, apiKey: "sk-test" }).complete(request());
    const second = createLlmClient({ baseURL: server.url, apiKey: "sk-test" });
    await second.complete(request());
    const otherKey = createLlmClient({ baseURL: server.url, apiKey: "sk-other" });
    await otherKey.complete(request());

    expect(second.poolingStats()).toEqual({ prefilter: { created: 1, reused: 1 } });
    expect(otherKey.poolingStats()).toEqual({ prefilter: { created: 1, reused: 0 } });
  });

  it("runs calls concurrently: the first answer waits for the second request, and both come", async () => {
    // Sent one after another, the first call would time out waiting (no retries by default).
    let release!: () => void;
    const bothArrived = new Promise<void>((resolve) => (release = resolve));
    const server = await serve(async () => {
      if (server.requests.length === 2) release();
      await bothArrived;
      return { content: "{}" };
    });
    const llm = createLlmClient({ baseURL: server.url, apiKey: "sk-test" });

    await Promise.all([llm.complete(request()), llm.complete(request())]);
    expect(server.requests).toHaveLength(2);
  });

  it("keeps working when the sink throws", async () => {
    const server = await serve((req) =>
      req.messages.length === 1 ? { status: 503 } : { content: '{"ok": true}' },
    );
    const boom = () => {
      throw new Error("sink down");
    };
    const llm = createLlmClient({
      baseURL: server.url,
      apiKey: "sk-test",
      log: { record: boom, recordParse: boom },
    });

    await expect(llm.complete(request())).resolves.toMatchObject({ text: '{"ok": true}' });
    await expect(llm.complete(request({ messages: MESSAGES.slice(1) }))).rejects.toMatchObject({
      name: "LlmCallError",
      status: 503,
    });
    expect(() =>
      llm.recordParse?.({ component: "prefilter" }, { parser: "json", failures: [] }),
    ).not.toThrow();
  });
});
