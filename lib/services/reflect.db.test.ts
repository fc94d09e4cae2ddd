import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { keyPoints } from "@/lib/db/key-points";
import { createLlmClient } from "@/lib/llm/client";
import { agentEventSchema } from "@/lib/schemas/events";
import { setupTestDatabase, unique } from "@/test/db";
import { startScriptedLlmServer, type ScriptedReply } from "@/test/llm-server";
import { ensureConstitution } from "./constitution";
import { ingestEvents } from "./ingest";
import { reflectSession } from "./reflect";

let teardown: () => Promise<void>;
let reply: ScriptedReply = { content: "{}" };
let server: Awaited<ReturnType<typeof startScriptedLlmServer>>;
const actor = { id: null, label: "reflector" };

beforeAll(async () => {
  ({ teardown } = await setupTestDatabase());
  await ensureConstitution();
  server = await startScriptedLlmServer(() => reply);
});
afterAll(async () => {
  await server.close();
  await teardown();
});

async function session(): Promise<{ id: string; keyPoint: string }> {
  const keyPoint = await keyPoints.add(`Run the tests before saying done ${unique("kp")}`, actor);
  const id = unique("reflect");
  const event = (e: Record<string, unknown>) =>
    agentEventSchema.parse({ ...e, id: unique("evt"), session_id: id });
  await ingestEvents([
    event({ type: "UserPromptSubmit", prompt: "fix the flaky date test" }),
    event({ type: "Stop", response: "Fixed it and ran the suite." }),
  ]);
  return { id, keyPoint };
}

const llm = () => createLlmClient({ baseURL: server.url, apiKey: "k" });

describe("the reflector", () => {
  it("applies a valid ExtractionResult and records it", async () => {
    const s = await session();
    reply = {
      content: JSON.stringify({
        new_key_points: ["Pin the time zone in date tests"],
        evaluations: [{ name: s.keyPoint, rating: "helpful" }],
      }),
    };
    const outcome = await reflectSession(s.id, actor, llm());
    expect(outcome).toMatchObject({ status: "applied", evaluated: 1 });
    expect((await db().keyPoint.findUniqueOrThrow({ where: { name: s.keyPoint } })).helpful).toBe(
      1,
    );
    expect(await db().reflection.count({ where: { sessionId: s.id, status: "applied" } })).toBe(1);
    // The key points injected into the turn (the most trusted of a shared database, not necessarily this test's) were shown to the reflector.
    const injected = (await db().turn.findMany({ where: { sessionId: s.id } })).flatMap(
      (t) => t.injectedKeyPoints,
    );
    expect(injected.length).toBeGreaterThan(0);
    for (const name of injected) expect(JSON.stringify(server.requests.at(-1))).toContain(name);
  });

  it("recovers JSON wrapped in prose", async () => {
    const s = await session();
    reply = {
      content: `Here is my review:\n{"new_key_points": [], "evaluations": [{"name": "${s.keyPoint}", "rating": "harmful"}]}\nThanks!`,
    };
    expect(await reflectSession(s.id, actor, llm())).toMatchObject({
      status: "applied",
      evaluated: 1,
    });
  });

  it.each([
    [
      "JSON that is not an object",
      { content: '[{"name": "kpt_001", "rating": "helpful"}]' },
      /not an ExtractionResult/,
    ],
    ["garbage", { content: "I cannot do that." }, /not an ExtractionResult/],
    ["a timeout", { content: "{}", delayMs: 3_000 }, /^(timeout|.*did not answer)/],
  ])(
    "applies nothing on %s and records why",
    async (_label, scripted, error) => {
      const s = await session();
      reply = scripted;
      const before = await db().keyPoint.count();
      process.env.CHARTER_LLM_TIMEOUT_MS = "500";
      const { resetEnv } = await import("@/lib/env");
      resetEnv();
      const outcome = await reflectSession(s.id, actor, llm());
      delete process.env.CHARTER_LLM_TIMEOUT_MS;
      resetEnv();
      expect(outcome.status).toBe("failed");
      expect(outcome.status === "failed" && outcome.error).toMatch(error);
      expect(await db().keyPoint.count()).toBe(before);
      expect((await db().reflection.findFirstOrThrow({ where: { sessionId: s.id } })).status).toBe(
        "failed",
      );
    },
    20_000,
  );
});

describe("reflections queued at SessionEnd", () => {
  it("are queued in the leased job table, not started at once; run two at a time; and one whose process died is run again", async () => {
    const { resetEnv } = await import("@/lib/env");
    const { drainReflections } = await import("./reflect");
    process.env.CHARTER_REFLECT_ON_SESSION_END = "true";
    process.env.OPENAI_BASE_URL = server.url;
    process.env.OPENAI_API_KEY = "k";
    resetEnv();
    try {
      const ids = [unique("queued"), unique("queued"), unique("queued")];
      const ends = ids.flatMap((id) => {
        const event = (e: Record<string, unknown>) =>
          agentEventSchema.parse({ ...e, id: unique("evt"), session_id: id });
        return [
          event({ type: "UserPromptSubmit", prompt: "fix the flaky date test" }),
          event({ type: "Stop", response: "Fixed it and ran the suite." }),
          event({ type: "SessionEnd", reason: "exit" }),
        ];
      });
      const requestsBefore = server.requests.length;
      await ingestEvents(ends, { source: "import" });
      const jobs = await db().backgroundJob.findMany({
        where: { kind: "reflect", sessionId: { in: ids } },
        orderBy: { id: "asc" },
      });
      expect(jobs.map((j) => [j.sessionId, j.status])).toEqual(ids.map((id) => [id, "queued"]));
      expect(server.requests.length).toBe(requestsBefore);

      // A process took the first job and died: its lease lapses, and the next worker runs it again.
      await db().backgroundJob.update({
        where: { id: jobs[0]!.id },
        data: {
          status: "running",
          leaseOwner: "dead-process",
          leaseUntil: new Date(Date.now() - 1_000),
          attempts: 1,
        },
      });
      reply = { content: JSON.stringify({ new_key_points: [], evaluations: [] }) };
      expect(await drainReflections("test-worker")).toBe(3);
      const done = await db().backgroundJob.findMany({
        where: { kind: "reflect", sessionId: { in: ids } },
        orderBy: { id: "asc" },
      });
      expect(done.map((j) => [j.status, j.attempts, j.leaseOwner])).toEqual([
        ["done", 2, null],
        ["done", 1, null],
        ["done", 1, null],
      ]);
      expect(
        await db().reflection.count({ where: { sessionId: { in: ids }, status: "applied" } }),
      ).toBe(3);
      expect(server.requests.length).toBe(requestsBefore + 3);
    } finally {
      delete process.env.CHARTER_REFLECT_ON_SESSION_END;
      delete process.env.OPENAI_BASE_URL;
      delete process.env.OPENAI_API_KEY;
      resetEnv();
    }
  });

  it("gives a job up after three tries when the run itself fails, keeping why", async () => {
    const { resetEnv } = await import("@/lib/env");
    const { drainReflections } = await import("./reflect");
    const job = await db().backgroundJob.create({
      data: { kind: "reflect", sessionId: unique("no-such-session"), status: "queued" },
    });
    process.env.OPENAI_BASE_URL = server.url;
    resetEnv();
    try {
      await drainReflections("test-worker");
    } finally {
      delete process.env.OPENAI_BASE_URL;
      resetEnv();
    }
    expect(await db().backgroundJob.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({
      status: "failed",
      attempts: 3,
      leaseOwner: null,
    });
    expect((await db().backgroundJob.findUniqueOrThrow({ where: { id: job.id } })).error).toMatch(
      /^No session no-such-session/,
    );
  });
});
