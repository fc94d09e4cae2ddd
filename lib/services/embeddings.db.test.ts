import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Constitution } from "@/lib/constitution";
import { semanticDocuments } from "@/lib/constitution/semantic";
import { db } from "@/lib/db/client";
import { resetEnv } from "@/lib/env";
import { loadConstitution } from "@/lib/files/constitution";
import { setupTestDatabase, unique } from "@/test/db";
import {
  hashVector,
  startScriptedLlmServer,
  type ScriptedEmbeddingReply,
  type ScriptedLlmServer,
} from "@/test/llm-server";
import { LlmTimeoutError } from "@/lib/constitution/llm-port";
import { lateRequests } from "@/lib/llm/embeddings";
import { callLog } from "./call-log";
import {
  forgetSemantic,
  SEMANTIC_RETRY_MS,
  semanticFor,
  STILL_EMBEDDING,
  type Semantic,
} from "./embeddings";

let teardown: () => Promise<void>;
let server: ScriptedLlmServer;
let reply: ScriptedEmbeddingReply = {};
let base: Constitution;
let nextVersionId = 1_000_000 + Math.floor(Math.random() * 1_000_000);

beforeAll(async () => {
  ({ teardown } = await setupTestDatabase());
  server = await startScriptedLlmServer(() => ({ content: "{}" }), { embeddings: () => reply });
  const loaded = await loadConstitution(
    path.resolve(import.meta.dirname, "../constitution/fixtures/base"),
  );
  if (!loaded.ok) throw new Error("the base fixture no longer parses");
  base = loaded.constitution;
});

afterEach(() => {
  vi.useRealTimers();
  forgetSemantic();
  reply = {};
  server.embeddingRequests.splice(0);
});

afterAll(async () => {
  await server.close();
  for (const name of ["OPENAI_BASE_URL", "OPENAI_API_KEY", "CHARTER_EMBEDDING_MODEL"])
    delete process.env[name];
  resetEnv();
  await teardown();
});

/** Points the service at the scripted server with a model no other test (or earlier run) has used. */
function configure(): string {
  const model = unique("embed-model");
  process.env.OPENAI_BASE_URL = server.url;
  process.env.OPENAI_API_KEY = "sk-test";
  process.env.CHARTER_EMBEDDING_MODEL = model;
  resetEnv();
  return model;
}

const version = (constitution: Constitution) => ({ id: nextVersionId++, constitution });
const embedded = () => server.embeddingRequests.flatMap((r) => r.input);
const stored = (model: string) => db().constitutionEmbedding.count({ where: { model } });

function semantic(result: Awaited<ReturnType<typeof semanticFor>>): Semantic {
  if (!result || "unavailable" in result)
    throw new Error(`expected an index, got ${JSON.stringify(result)}`);
  return result;
}

/** The base constitution with one core principle's rule changed. */
function withChangedRule(): Constitution {
  const [first, ...rest] = base.core;
  return { ...base, core: [{ ...first!, rule: `${first!.rule} ${unique("edit")}` }, ...rest] };
}

/** Waits for the constitution's texts to be embedded (a retrieval does not: see the last test). */
const WAIT = { wait: true };

describe("semanticFor", () => {
  it("is null when no embedding model is configured", async () => {
    configure();
    delete process.env.CHARTER_EMBEDDING_MODEL;
    resetEnv();
    expect(await semanticFor(version(base), WAIT)).toBeNull();
    expect(server.embeddingRequests).toEqual([]);
  });

  it("embeds every document once, stores it, and logs the calls", async () => {
    const model = configure();
    const docs = semanticDocuments(base);
    const texts = [...new Set(docs.map((d) => d.text))];

    const { index } = semantic(await semanticFor(version(base), WAIT));

    expect(embedded().sort()).toEqual([...texts].sort());
    expect(server.embeddingRequests.every((r) => r.model === model)).toBe(true);
    expect(await stored(model)).toBe(texts.length);
    expect(index.model).toBe(model);
    expect([...index.scores(hashVector("x")).domains.keys()].sort()).toEqual(
      Object.keys(base.overlays).sort(),
    );
    await callLog().flush();
    expect(
      await db().llmCall.count({ where: { model, component: "embeddings", outcome: "ok" } }),
    ).toBe(server.embeddingRequests.length);
  });

  it("asks nothing again for the same version, cached or not", async () => {
    configure();
    const v = version(base);
    const first = await semanticFor(v, WAIT);
    server.embeddingRequests.splice(0);

    expect(await semanticFor(v, WAIT)).toBe(first);
    forgetSemantic();
    expect(semantic(await semanticFor(v, WAIT)).index).not.toBe(semantic(first).index);
    expect(server.embeddingRequests).toEqual([]);
  });

  it("embeds only the changed texts of a new version", async () => {
    const model = configure();
    await semanticFor(version(base), WAIT);
    const before = await stored(model);
    server.embeddingRequests.splice(0);
    const edited = withChangedRule();

    await semanticFor(version(edited), WAIT);

    const changed = semanticDocuments(edited).filter(
      (d, i) => d.text !== semanticDocuments(base)[i]!.text,
    );
    expect(changed.map((d) => d.key)).toEqual([`principle:${base.core[0]!.id}`]);
    expect(embedded()).toEqual(changed.map((d) => d.text));
    expect(await stored(model)).toBe(before + 1);
  });

  it("embeds the prompt and scores it against the index", async () => {
    configure();
    const s = semantic(await semanticFor(version(base), WAIT));
    const domain = semanticDocuments(base).find((d) => d.key.startsWith("domain:"))!;
    reply = { vector: (input) => hashVector(input === "my prompt" ? domain.text : input) };
    server.embeddingRequests.splice(0);

    const sims = await s.similarities("my prompt", { requestId: "req-1" });

    expect(sims.domains.get(domain.key.slice("domain:".length))).toBeCloseTo(1, 10);
    expect(server.embeddingRequests.map((r) => r.input)).toEqual([["my prompt"]]);
  });

  it("is unavailable while the endpoint is down, stores nothing, and tries again later", async () => {
    const model = configure();
    reply = { status: 503 };
    const v = version(base);

    expect(await semanticFor(v, WAIT)).toEqual({ unavailable: expect.stringContaining("503") });
    expect(await stored(model)).toBe(0);

    reply = {};
    server.embeddingRequests.splice(0);
    expect(await semanticFor(v, WAIT)).toMatchObject({
      unavailable: expect.stringContaining("503"),
    });
    expect(server.embeddingRequests).toEqual([]);

    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + SEMANTIC_RETRY_MS);
    expect(semantic(await semanticFor(v, WAIT)).index.model).toBe(model);
    expect(await stored(model)).toBeGreaterThan(0);
  });

  it("refuses, and does not store, vectors of another dimension than the stored ones", async () => {
    const model = configure();
    await semanticFor(version(base), WAIT);
    const before = await stored(model);
    reply = { vector: (input) => hashVector(input, 4) };

    expect(await semanticFor(version(withChangedRule()), WAIT)).toEqual({
      unavailable: expect.stringMatching(/has 4 dimensions, the others 8/),
    });
    expect(await stored(model)).toBe(before);
  });

  it("does not make a retrieval wait while a version's texts are embedded: lexical until they are", async () => {
    configure();
    const v = version(withChangedRule());
    expect(await semanticFor(v)).toEqual({ unavailable: STILL_EMBEDDING });
    const ready = semantic(await semanticFor(v, WAIT));
    expect(semantic(await semanticFor(v))).toBe(ready);
  });

  it("lets a prompt's embedding that timed out finish in the background, its connection kept for the next", async () => {
    configure();
    process.env.CHARTER_EMBEDDING_TIMEOUT_MS = "100";
    resetEnv();
    try {
      const s = semantic(await semanticFor(version(base), WAIT));
      reply = { delayMs: 1_000 };
      await expect(s.similarities("a slow prompt")).rejects.toBeInstanceOf(LlmTimeoutError);
      const connections = server.connections();
      expect(lateRequests()).toBe(1);
      await vi.waitFor(() => expect(lateRequests()).toBe(0), { timeout: 20_000 });
      reply = {};
      await s.similarities("a quick prompt");
      expect(server.connections()).toBe(connections);
    } finally {
      delete process.env.CHARTER_EMBEDDING_TIMEOUT_MS;
      resetEnv();
    }
  });

  it("is semantic from the first retrieval of a process when every text's vector is stored", async () => {
    configure();
    const v = version(withChangedRule());
    await semanticFor(v, WAIT);
    forgetSemantic(); // as a new process (a `charter retrieve`) starts
    server.embeddingRequests.splice(0);

    const first = semantic(await semanticFor(v));

    expect(server.embeddingRequests).toEqual([]);
    expect(await first.similarities("my prompt")).toBeDefined();
    expect(server.embeddingRequests.map((r) => r.input)).toEqual([["my prompt"]]);
  });
});
