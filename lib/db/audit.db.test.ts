import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupTestDatabase, unique } from "@/test/db";
import { auditLog } from "./audit";
import { db } from "./client";

let teardown: () => Promise<void>;
beforeAll(async () => {
  ({ teardown } = await setupTestDatabase());
});
afterAll(() => teardown());

describe("audit log", () => {
  it("appends entries with before/after JSON and lists them newest first", async () => {
    const objectId = unique("obj");
    await db().$transaction((tx) =>
      auditLog.append(tx, {
        actor: { id: null, label: "test" },
        action: "thing.create",
        objectType: "thing",
        objectId,
        after: { name: "a" },
      }),
    );
    await db().$transaction((tx) =>
      auditLog.append(tx, {
        actor: { id: null, label: "test" },
        action: "thing.rename",
        objectType: "thing",
        objectId,
        before: { name: "a" },
        after: { name: "b" },
      }),
    );
    const entries = (await auditLog.list({ objectType: "thing" })).filter(
      (e) => e.objectId === objectId,
    );
    expect(entries.map((e) => e.action)).toEqual(["thing.rename", "thing.create"]);
    expect(entries[0]).toMatchObject({
      actorLabel: "test",
      before: { name: "a" },
      after: { name: "b" },
    });
  });

  it("offers no way to change or remove an entry through the repository", () => {
    expect(Object.keys(auditLog).sort()).toEqual(["append", "list", "record"]);
  });

  it("refuses UPDATE, DELETE and TRUNCATE in the database itself", async () => {
    const objectId = unique("obj");
    await db().$transaction((tx) =>
      auditLog.append(tx, {
        actor: { id: null, label: "test" },
        action: "thing.create",
        objectType: "thing",
        objectId,
      }),
    );
    await expect(
      db().auditLog.updateMany({ where: { objectId }, data: { action: "forged" } }),
    ).rejects.toThrow(/append-only/);
    await expect(db().auditLog.deleteMany({ where: { objectId } })).rejects.toThrow(/append-only/);
    await expect(db().$executeRawUnsafe(`TRUNCATE audit_log`)).rejects.toThrow(/append-only/);
    const [entry] = (await auditLog.list({ objectType: "thing" })).filter(
      (e) => e.objectId === objectId,
    );
    expect(entry?.action).toBe("thing.create");
  });

  it("rolls back the entry with the change it records", async () => {
    const objectId = unique("obj");
    await expect(
      db().$transaction(async (tx) => {
        await auditLog.append(tx, {
          actor: { id: null, label: "test" },
          action: "thing.create",
          objectType: "thing",
          objectId,
        });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(
      (await auditLog.list({ objectType: "thing" })).some((e) => e.objectId === objectId),
    ).toBe(false);
  });
});
