import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupTestDatabase, unique } from "@/test/db";
import { db } from "@/lib/db/client";
import { latest, users } from "@/lib/db/users";

let teardown: () => Promise<void>;
beforeAll(async () => {
  ({ teardown } = await setupTestDatabase());
});
afterAll(() => teardown());

describe("a person's last activity on the Users page", () => {
  it("is the person's latest audit row as actor, and nothing for someone who never acted", async () => {
    const admin = { id: null, label: "test-admin" };
    const actorUser = await users.create(
      { email: `${unique("act")}@example.com`, name: "Actor", role: "editor" },
      admin,
    );
    const idle = await users.create(
      { email: `${unique("idle")}@example.com`, name: "Idle", role: "viewer" },
      admin,
    );
    await users.recordSession("sign_in", actorUser.id, { ip: "127.0.0.1" });
    await users.setRole(idle.id, "approver", { id: actorUser.id, label: actorUser.email });
    const newest = await db().auditLog.findFirst({
      where: { actorId: actorUser.id },
      orderBy: { at: "desc" },
    });

    const listed = new Map((await users.list()).map((u) => [u.id, u.lastSeenAt]));
    expect(listed.get(actorUser.id)).toEqual(newest!.at);
    expect(listed.get(idle.id)).toBeNull();
  });

  it.each([
    [new Date(1), new Date(2), new Date(2)],
    [new Date(3), new Date(2), new Date(3)],
    [null, new Date(2), new Date(2)],
    [new Date(1), undefined, new Date(1)],
    [null, undefined, null],
  ])("latest(%s, %s) is %s", (a, b, expected) => {
    expect(latest(a, b)).toEqual(expected);
  });
});
