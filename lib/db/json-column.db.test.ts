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
  it("refuses a reflection whose status is outside its list, naming the row", async () => {
    const sessionId = `corrupt-${randomUUID()}`;
    const id = randomUUID();
    await db().reflection.create({ data: { id, sessionId, status: "half-done" } });
    await expect(reflections.latest(sessionId)).rejects.toThrow(
      `reflection row ${id}: status does not parse`,
    );
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
