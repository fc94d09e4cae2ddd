import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupTestDatabase, unique } from "@/test/db";
import { ConflictError } from "@/lib/errors";
import { auditLog } from "./audit";
import { db } from "./client";
import { users } from "./users";

let teardown: () => Promise<void>;
beforeAll(async () => {
  ({ teardown } = await setupTestDatabase());
});
afterAll(() => teardown());

const actor = { id: null, label: "test-admin" };

describe("users repository", () => {
  it("creates a user, audits it, and refuses a taken e-mail without writing", async () => {
    const email = `${unique("u")}@example.com`;
    const created = await users.create({ email, name: "Ann", role: "editor" }, actor);
    expect(created).toMatchObject({ email, role: "editor", banned: false });
    const before = await db().auditLog.count();
    await expect(
      users.create({ email: email.toUpperCase(), name: "Ann again", role: "viewer" }, actor),
    ).rejects.toBeInstanceOf(ConflictError);
    expect(await db().auditLog.count()).toBe(before);
    const entries = await auditLog.list({ objectType: "user" });
    expect(entries.find((e) => e.objectId === created.id)?.action).toBe("user.create");
  });

  it("changes roles with before/after in the audit log", async () => {
    const user = await users.create(
      { email: `${unique("u")}@example.com`, name: "Bo", role: "viewer" },
      actor,
    );
    await users.setRole(user.id, "approver", actor);
    const entry = (await auditLog.list({ objectType: "user" })).find(
      (e) => e.objectId === user.id && e.action === "user.set_role",
    );
    expect(entry).toMatchObject({ before: { role: "viewer" }, after: { role: "approver" } });
  });

  it("never demotes the last admin", async () => {
    // Make this database's admins exactly one: demote all others first.
    const lone = await users.create(
      { email: `${unique("admin")}@example.com`, name: "Solo", role: "admin" },
      actor,
    );
    const others = await db().user.findMany({ where: { role: "admin", NOT: { id: lone.id } } });
    for (const other of others) await users.setRole(other.id, "viewer", actor);
    await expect(users.setRole(lone.id, "editor", actor)).rejects.toThrow(
      /at least one active admin/,
    );
    expect((await db().user.findUnique({ where: { id: lone.id } }))?.role).toBe("admin");
  });

  it("blocking ends the user's sessions", async () => {
    const user = await users.create(
      { email: `${unique("u")}@example.com`, name: "Cy", role: "viewer" },
      actor,
    );
    await db().session.create({
      data: {
        id: unique("s"),
        token: unique("t"),
        userId: user.id,
        expiresAt: new Date(Date.now() + 3_600_000),
      },
    });
    await users.setBlocked(user.id, true, actor);
    expect(await db().session.count({ where: { userId: user.id } })).toBe(0);
    expect((await db().user.findUnique({ where: { id: user.id } }))?.banned).toBe(true);
  });
});

describe("the last active admin", () => {
  /** Leaves exactly `count` active admins, made for the test, and returns them. */
  async function onlyAdmins(count: number) {
    const made = [];
    for (let i = 0; i < count; i += 1)
      made.push(
        await users.create(
          { email: `${unique("adm")}@example.test`, name: "Adm", role: "admin" },
          actor,
        ),
      );
    const others = await db().user.findMany({
      where: { role: "admin", id: { notIn: made.map((m) => m.id) } },
    });
    await db().user.updateMany({
      where: { id: { in: others.map((o) => o.id) } },
      data: { role: "viewer" },
    });
    return made;
  }

  it("cannot demote yourself after blocking the other admin: blocked admins do not count", async () => {
    const [me, other] = await onlyAdmins(2);
    const self = { id: me!.id, label: me!.email };
    await users.setBlocked(other!.id, true, self);
    expect(await users.countAdmins()).toBe(1);
    const before = await db().auditLog.count();
    await expect(users.setRole(me!.id, "viewer", self)).rejects.toThrow(
      /at least one active admin/,
    );
    expect((await db().user.findUniqueOrThrow({ where: { id: me!.id } })).role).toBe("admin");
    expect(await db().auditLog.count()).toBe(before);
  });

  it("cannot be blocked, and a blocked admin can still be demoted", async () => {
    const [last, spare] = await onlyAdmins(2);
    await users.setBlocked(spare!.id, true, actor);
    await expect(users.setBlocked(last!.id, true, actor)).rejects.toThrow(
      /at least one active admin/,
    );
    expect((await db().user.findUniqueOrThrow({ where: { id: last!.id } })).banned).toBe(false);
    await users.setRole(spare!.id, "viewer", actor);
    expect((await db().user.findUniqueOrThrow({ where: { id: spare!.id } })).role).toBe("viewer");
  });
});
