import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { setupTestDatabaseWithConstitution } from "@/test/db";
import { DEMO_DAYS, demoTeamSessions, loadDemo } from "./demo";

// The demo brings every page to life through the paths real data takes: delivered
// prompts (so principles are injected and credited), people's follow-ups, 30 days of
// scored turns, and a rated playbook with a prune proposal waiting for an approver.

const NOW = new Date("2026-11-28T12:00:00.000Z");
const LESSON_TEXTS = [
  "Run the full test suite before saying a change is done.",
  "Ask for a backup before any destructive database change.",
  "Prefer small commits that each pass the tests.",
  "Quote the dose range and point to a pharmacist for medicine questions.",
  "Skip linting when the tests pass, to save time.",
  "Retry network calls only when the operation is idempotent.",
];
const actor = { id: null, label: "demo-test" };
let teardown: () => Promise<void>;

beforeAll(async () => {
  ({ teardown } = await setupTestDatabaseWithConstitution());
});
afterAll(() => teardown());

const count = async (sql: string) =>
  Number((await db().$queryRawUnsafe<{ n: bigint }[]>(sql))[0]!.n);

describe("the demo", () => {
  it("is the same team on every machine, spread over the last 30 days, never in the future", () => {
    const a = demoTeamSessions(NOW);
    const b = demoTeamSessions(NOW);
    expect(a).toEqual(b);
    const times = a.flatMap((s) => s.events.map((e) => Date.parse(e.at!)));
    expect(Math.max(...times)).toBeLessThanOrEqual(NOW.getTime());
    expect(Math.min(...times)).toBeGreaterThanOrEqual(NOW.getTime() - DEMO_DAYS * 86_400_000);
    const days = new Set(times.map((t) => new Date(t).toISOString().slice(0, 10)));
    expect(days.size).toBe(DEMO_DAYS);
  });

  it("fills the Principles, Playbook and prune pages, and a second load adds nothing", async () => {
    // On a shared database another test may have loaded the demo already: what is
    // checked is the state a load leaves, whichever load made it.
    const first = await loadDemo(actor, NOW);
    expect(first.teamSessions).toBeGreaterThanOrEqual(DEMO_DAYS * 2);
    const lessons = await db().keyPoint.findMany({
      where: { text: { in: LESSON_TEXTS } },
      select: { text: true, status: true, harmful: true },
    });
    expect(lessons.map((k) => k.text).sort()).toEqual([...LESSON_TEXTS].sort());
    // "Skip linting when the tests pass" was rated harmful 4 times: proposed for pruning, not removed.
    const harmful = lessons.find((k) => k.text.startsWith("Skip linting"))!;
    expect(harmful.harmful).toBeGreaterThanOrEqual(4);
    expect(harmful.status).toBe("proposed");
    expect(lessons.filter((k) => k.status === "proposed")).toHaveLength(1);

    // Delivered prompts injected principles, and ended sessions credited them.
    expect(
      await count(
        `SELECT count(*) AS n FROM turn WHERE session_id LIKE 'demo-team-%' AND context_delivery = 'delivered' AND cardinality(injected_principles) > 0`,
      ),
    ).toBeGreaterThan(10);
    expect(
      await count(`SELECT count(DISTINCT principle_id) AS n FROM principle_usage`),
    ).toBeGreaterThan(2);
    expect(
      await count(`SELECT count(*) AS n FROM session_outcome WHERE status = 'success'`),
    ).toBeGreaterThan(0);
    expect(
      await count(`SELECT count(*) AS n FROM session_outcome WHERE status <> 'success'`),
    ).toBeGreaterThan(0);

    const keyPointsBefore = await count(`SELECT count(*) AS n FROM key_point`);
    const again = await loadDemo(actor, NOW);
    expect(again.accepted).toBe(0);
    expect(again.keyPointsAdded).toEqual([]);
    expect(await count(`SELECT count(*) AS n FROM key_point`)).toBe(keyPointsBefore);
  });
});
