import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { issueSignInLink, upsertAdmin } from "@/lib/auth/bootstrap";
import { db } from "@/lib/db/client";
import { resetEnv } from "@/lib/env";
import { setupTestDatabase, unique } from "@/test/db";
import { FIRST_ADMIN_LINK_ACTOR, lifecycle } from "./lifecycle";

let teardown: () => Promise<void>;
beforeAll(async () => {
  process.env.BETTER_AUTH_SECRET ??= "start-up-test-secret-0123456789abcdefghij";
  resetEnv();
  ({ teardown } = await setupTestDatabase());
});
afterAll(() => teardown());

/** Waits (bounded, generously) until `check` holds; polls, never sleeps as synchronisation. */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("start-up writes of instances starting together", () => {
  // The lock is PostgreSQL's; the embedded database has one process by construction.
  it.skipIf(!inject("pgUrl"))("run one after another under the start-up lock", async () => {
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = lifecycle.serialisedStart(async () => {
      order.push("first: start");
      await gate;
      order.push("first: end");
    });
    await until(async () => order.length === 1, "the first start-up to hold the lock");
    const second = lifecycle.serialisedStart(async () => {
      order.push("second");
    });
    await until(async () => {
      const [row] = await db().$queryRaw<{ n: number }[]>`
          SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`;
      return (row?.n ?? 0) > 0;
    }, "the second start-up to wait for the lock");
    expect(order).toEqual(["first: start"]);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(["first: start", "first: end", "second"]);
  });

  it("find the first-admin link another start printed, and only that kind of link", async () => {
    const email = `${unique("first-admin")}@charter.local`;
    const { id } = await upsertAdmin(email, "Admin");
    expect(await lifecycle.firstAdminLinkSince(id, 300)).toBeNull();
    // A link made for somebody who asked (create-admin) is not a start's claim.
    await issueSignInLink(email);
    expect(await lifecycle.firstAdminLinkSince(id, 300)).toBeNull();
    await issueSignInLink(email, FIRST_ADMIN_LINK_ACTOR);
    expect(await lifecycle.firstAdminLinkSince(id, 300)).toBeInstanceOf(Date);
  });
});
