import { PrismaPg } from "@prisma/adapter-pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentEventSchema } from "@/lib/schemas/events";
import { ensureConstitution } from "@/lib/services/constitution";
import { ingestEvents } from "@/lib/services/ingest";
import { setupTestDatabase, unique } from "@/test/db";
import { db } from "./client";
import { credits as creditRepository } from "./credit";
import { PrismaClient } from "./generated/prisma/client";

let teardown: () => Promise<void>;
let target: Awaited<ReturnType<typeof setupTestDatabase>>["target"];
beforeAll(async () => {
  ({ teardown, target } = await setupTestDatabase());
  await ensureConstitution();
});
afterAll(() => teardown());

describe("recordUsage", () => {
  it("keeps exact counters under 1,000 concurrent calls on one principle from 20 connections", async () => {
    const principleId = unique("P.CONCURRENT");
    const credits = Array.from({ length: 1000 }, (_, i) => ((i * 37) % 101) / 100);
    // PostgreSQL: a client with a pool of 20 connections; the embedded database has one connection.
    const client =
      target.kind === "postgres"
        ? new PrismaClient({ adapter: new PrismaPg({ connectionString: target.url, max: 20 }) })
        : db();
    try {
      await Promise.all(
        credits.map((credit, i) =>
          creditRepository.recordUsage(principleId, `trace-${i}`, credit, { client }),
        ),
      );
    } finally {
      if (client !== db()) await client.$disconnect();
    }
    const stat = await db().principleStat.findUniqueOrThrow({ where: { principleId } });
    expect(stat.useCount).toBe(1000);
    expect(stat.successCount).toBeCloseTo(
      credits.reduce((a, b) => a + b, 0),
      6,
    );
    expect(await db().principleUsage.count({ where: { principleId } })).toBe(1000);
    expect(await db().principleUsage.count({ where: { principleId, wasSuccessful: true } })).toBe(
      credits.filter((c) => c >= 0.5).length,
    );
  }, 120_000);

  it("refuses a credit outside 0..1 and writes nothing", async () => {
    const principleId = unique("P.BAD");
    await expect(creditRepository.recordUsage(principleId, null, 1.5)).rejects.toThrow(
      /between 0 and 1/,
    );
    expect(await db().principleUsage.count({ where: { principleId } })).toBe(0);
  });
});

describe("crediting a session at SessionEnd", () => {
  const session = unique("credit");
  const event = (e: Record<string, unknown>) =>
    agentEventSchema.parse({ ...e, id: unique("evt"), session_id: session });
  const end = event({ type: "SessionEnd", reason: "exit" });

  it("computes the outcome and credits each injected principle once", async () => {
    await ingestEvents([
      event({
        type: "UserPromptSubmit",
        prompt: "fix the failing pagination test in the orders module",
      }),
      event({
        type: "PostToolUse",
        tool_name: "Bash",
        tool_input: { command: "npm test" },
        tool_response: "1 failing\nExit code: 1",
      }),
      event({
        type: "PostToolUse",
        tool_name: "Edit",
        tool_input: { file_path: "src/paginate.ts" },
        tool_response: "The file src/paginate.ts has been updated.",
      }),
      event({ type: "Stop", response: "Fixed the off-by-one; the tests pass now." }),
      event({ type: "UserPromptSubmit", prompt: "perfect, thanks!" }),
      event({ type: "Stop", response: "Glad it works." }),
    ]);
    const first = await ingestEvents([end]);
    const outcome = first.results[0]!.outcome!;
    expect(["success", "partial", "failure"]).toContain(outcome.status);
    const stored = await db().sessionOutcome.findUniqueOrThrow({ where: { sessionId: session } });
    const credits = stored.credits as { principle_id: string; credit: number; reasoning: string }[];
    expect(credits.length).toBeGreaterThan(0);
    expect(credits[0]!.reasoning).toMatch(/^tool_success=50%, user_sentiment=\d+%$/);
    const turns = await db().turn.findMany({
      where: { sessionId: session },
      orderBy: { number: "asc" },
    });
    expect(turns[1]!.feedback).toMatchObject({ type: "explicit_positive", sentiment: 1 });
    expect(await db().principleUsage.count({ where: { traceId: session } })).toBe(credits.length);
  });

  it("changes nothing when SessionEnd repeats, and credits again in place of the first when a new SessionEnd arrives", async () => {
    const before = await db().principleUsage.count({ where: { traceId: session } });
    const stats = await db().principleStat.findMany({ orderBy: { principleId: "asc" } });
    const replay = await ingestEvents([end]);
    expect(replay.duplicates).toBe(1);
    expect(replay.results[0]!.outcome).toBeDefined();
    const again = await ingestEvents([event({ type: "SessionEnd", reason: "again" })]);
    expect(again.results[0]!.outcome).toEqual(replay.results[0]!.outcome);
    expect(await db().principleUsage.count({ where: { traceId: session } })).toBe(before);
    // Taken back and recorded again: the counters are where they were, not doubled.
    const after = await db().principleStat.findMany({ orderBy: { principleId: "asc" } });
    expect(after.map((s) => [s.principleId, s.useCount, Math.round(s.successCount * 1e6)])).toEqual(
      stats.map((s) => [s.principleId, s.useCount, Math.round(s.successCount * 1e6)]),
    );
    expect((await db().agentSession.findUniqueOrThrow({ where: { id: session } })).endReason).toBe(
      "again",
    );
  });
});
