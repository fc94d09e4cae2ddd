import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentEventSchema } from "@/lib/schemas/events";
import { ensureConstitution } from "@/lib/services/constitution";
import { ingestEvents } from "@/lib/services/ingest";
import { setupTestDatabase, unique } from "@/test/db";
import { decodeCursor, turns } from "./turns";

let teardown: () => Promise<void>;
const session = unique("pages");

beforeAll(async () => {
  ({ teardown } = await setupTestDatabase());
  await ensureConstitution();
  const events = [];
  for (let i = 0; i < 5; i++) {
    events.push({
      type: "UserPromptSubmit",
      prompt: `turn ${i}`,
      at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
    });
    events.push({
      type: "Stop",
      response: i % 2 ? "OK" : "A careful, complete answer to the request.",
      at: new Date(Date.UTC(2026, 0, 1, 0, i, 30)).toISOString(),
    });
  }
  await ingestEvents(
    events.map((e) => agentEventSchema.parse({ ...e, id: unique("evt"), session_id: session })),
  );
});
afterAll(() => teardown());

describe("listTurns", () => {
  it("pages through a session newest first with keyset cursors, each turn once", async () => {
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof turns.list>> = await turns.list(
        { sessionId: session },
        { cursor: decodeCursor(cursor), limit: 2 },
      );
      seen.push(...page.rows.map((r) => r.number));
      cursor = page.next;
    } while (cursor);
    expect(seen).toEqual([5, 4, 3, 2, 1]);
  });

  it("filters by 'principle below value' and by total", async () => {
    const low = await turns.list({ sessionId: session, principle: "joy_inducing", below: 1 });
    expect(low.rows.map((r) => r.number).sort()).toEqual([2, 4]);
    const perfect = await turns.list({ sessionId: session, minTotal: 1 });
    expect(perfect.rows.map((r) => r.number).sort()).toEqual([1, 3, 5]);
  });

  it("marks overridden turns and keeps their place in the list", async () => {
    const before = await turns.list({ sessionId: session });
    const target = before.rows[2]!;
    await turns.overrideScore(
      { turnId: target.id, principle: "tasteful", value: 0.2, reason: "test" },
      { id: null, label: "test" },
    );
    const after = await turns.list({ sessionId: session });
    expect(after.rows.map((r) => r.id)).toEqual(before.rows.map((r) => r.id));
    expect(after.rows[2]).toMatchObject({ overridden: true, scores: { tasteful: 0.2 } });
    expect(after.rows[2]!.weightedTotal).toBeCloseTo(target.weightedTotal - 0.8, 4);
  });

  it("ignores a cursor it cannot read", () => {
    expect(decodeCursor("not-a-cursor")).toBeUndefined();
  });
});
