import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupTestDatabase } from "@/test/db";
import { db } from "./client";
import { CorruptRowError } from "./json-column";
import { reflections } from "./reflections";
import { sessions } from "./sessions";

let teardown: () => Promise<void>;
beforeAll(async () => {
  ({ teardown } = await setupTestDatabase());
});
afterAll(async () => teardown());

describe("rows read through a repository", () => {
  it("never holds a reflection whose status is outside its list: the database refuses it", async () => {
    // The read-side check (json-column.test.ts) stays for databases edited by hand before the
    // constraint; since migration 20261127100000_status_checks such a row cannot be written.
    const sessionId = `corrupt-${randomUUID()}`;
    await expect(
      db().reflection.create({ data: { id: randomUUID(), sessionId, status: "half-done" } }),
    ).rejects.toThrow(/reflection_status_check|check constraint/i);
    expect(await reflections.latest(sessionId)).toBeNull();
  });

  it("refuses an outcome whose signals are not signals, naming the table, row and field", async () => {
    const id = `corrupt-${randomUUID()}`;
    await db().agentSession.create({ data: { id } });
    await db().sessionOutcome.create({
      data: { sessionId: id, status: "success", score: 1, signals: { edits: "many" }, credits: [] },
    });
    await expect(sessions.get(id)).rejects.toBeInstanceOf(CorruptRowError);
    await expect(sessions.get(id)).rejects.toThrow(
      `session_outcome row ${id}: signals does not parse`,
    );
  });
});
