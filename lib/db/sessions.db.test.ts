import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentEventSchema, type AgentEventInput } from "@/lib/schemas/events";
import { ensureConstitution } from "@/lib/services/constitution";
import { ingestEvents } from "@/lib/services/ingest";
import { setupTestDatabase } from "@/test/db";
import { sessions } from "./sessions";
import { stats as statsRepository } from "./stats";

let teardown: () => Promise<void>;
beforeAll(async () => {
  ({ teardown } = await setupTestDatabase());
  await ensureConstitution();
});
afterAll(async () => teardown());

const DAY_MS = 86_400_000;
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** One answered prompt of a fresh session, `daysAgo` days before now, as the hook reports it. */
async function reportTurn(daysAgo: number, prompt: string) {
  const session = `db-sessions-${randomUUID()}`;
  const at = new Date(Date.now() - daysAgo * DAY_MS);
  const events: AgentEventInput[] = [
    {
      type: "UserPromptSubmit",
      id: `${session}-p`,
      session_id: session,
      at: at.toISOString(),
      cwd: "/home/dev/shop-api",
      transcript_path: `/home/dev/.claude/projects/x/${session}.jsonl`,
      prompt,
    },
    {
      type: "Stop",
      id: `${session}-s`,
      session_id: session,
      at: new Date(at.getTime() + 60_000).toISOString(),
      response: "Done, and the tests pass.",
    },
  ];
  await ingestEvents(
    events.map((e) => agentEventSchema.parse(e)),
    { source: "api" },
  );
  return { session, at };
}

describe("listSessions", () => {
  it("gives each session its working directory, transcript path and first prompt (its start only)", async () => {
    const long = `Fix the flaky checkout test. ${"x".repeat(1000)}`;
    const { session } = await reportTurn(0, long);
    const row = (await sessions.list({ limit: 200 })).find((r) => r.id === session);
    expect(row).toMatchObject({
      source: "api",
      cwd: "/home/dev/shop-api",
      transcriptPath: expect.stringContaining(session),
      turns: 1,
    });
    expect(long.startsWith(row!.firstPrompt!)).toBe(true);
    expect(row!.firstPrompt!.length).toBeLessThan(long.length);
    expect(await sessions.count([session, `missing-${randomUUID()}`])).toBe(1);
  });
});

describe("overviewStats", () => {
  it("puts a turn on the day it happened, not the day it was scored", async () => {
    const { at } = await reportTurn(3, "Add a changelog entry for the release.");
    const stats = await statsRepository.overview(30);
    expect(stats.trend.map((t) => t.day)).toContain(dayOf(at));
    expect(stats.trend.every((t) => t.avgNormalized >= 0 && t.avgNormalized <= 1)).toBe(true);
  });
});
