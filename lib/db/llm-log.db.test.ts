import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CACHE_EVENTS } from "@/lib/constitution";
import { resetEnv } from "@/lib/env";
import { setupTestDatabase, unique } from "@/test/db";
import { startScriptedLlmServer, type ScriptedLlmServer } from "@/test/llm-server";
import { db } from "./client";
import { orchestrationLog } from "./orchestration-log";

// Retrieval through the service with an OpenAI-compatible endpoint configured:
// every call lands in llm_call with its parse contract, cache events in orchestration_event.

let teardown: () => Promise<void>;
let server: ScriptedLlmServer;

beforeAll(async () => {
  ({ teardown } = await setupTestDatabase());
  server = await startScriptedLlmServer((req) =>
    req.messages[0]?.content.startsWith("You route")
      ? { content: 'Here you go: {"domains": [{"domain": "medical", "confidence": 0.8}]}' }
      : { content: "not json at all" },
  );
  process.env.OPENAI_BASE_URL = server.url;
  process.env.OPENAI_API_KEY = "test-key";
  resetEnv();
  const { ensureConstitution } = await import("@/lib/services/constitution");
  await ensureConstitution();
});

afterAll(async () => {
  await server.close();
  delete process.env.OPENAI_BASE_URL;
  delete process.env.OPENAI_API_KEY;
  resetEnv();
  await teardown();
});

describe("LLM call log and orchestration events", () => {
  it("records each call with tokens, outcome and how its reply was parsed", async () => {
    const { retrieve, callLog } = await import("@/lib/services/constitution");
    const requestId = unique("req");
    const result = await retrieve("I have had severe headaches for three days", { requestId });
    await callLog().flush();
    expect(result.debug.path).toBe("llm");
    expect(result.domains[0]).toMatchObject({ domain: "medical", source: "llm" });

    const calls = await db().llmCall.findMany({ where: { requestId }, orderBy: { id: "asc" } });
    expect(calls.length).toBe(1 + result.debug.llm_calls.domain_agent);
    const prefilter = calls.find((c) => c.component === "prefilter")!;
    expect(prefilter).toMatchObject({ outcome: "ok", promptTokens: 11, completionTokens: 7 });
    expect(prefilter.promptHash).toMatch(/^[0-9a-f]{64}$/);
    expect(prefilter.parseContract).toMatchObject({ parser: "balanced_object" });
    const agent = calls.find((c) => c.component === "domain_agent")!;
    expect(
      (agent.parseContract as { parser: string | null; failures: unknown[] }).failures.length,
    ).toBeGreaterThan(0);
  });

  it("records prefilter cache misses, then hits, for the same prompt", async () => {
    const { retrieve } = await import("@/lib/services/constitution");
    const prompt = `headache ${unique("p")}`;
    const first = unique("req");
    const second = unique("req");
    expect((await retrieve(prompt, { requestId: first })).debug.prefilter_cache_status).toBe(
      "miss",
    );
    expect((await retrieve(prompt, { requestId: second })).debug.prefilter_cache_status).toBe(
      "hit",
    );
    // The log writes in batches: flushed, not waited for.
    await orchestrationLog().flush();
    const events = await db().orchestrationEvent.findMany({
      where: { requestId: { in: [first, second] } },
    });
    expect(events.map((e) => [e.requestId, e.type]).sort()).toEqual(
      [
        [first, CACHE_EVENTS.miss],
        [second, CACHE_EVENTS.hit],
      ].sort(),
    );
  });
});
