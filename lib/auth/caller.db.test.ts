import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { apiKeys } from "@/lib/db/api-keys";
import { db, POOL_SIZE, switchDatabase } from "@/lib/db/client";
import { users } from "@/lib/db/users";
import { BadRequestError, ServiceUnavailableError } from "@/lib/errors";
import { resetEnv } from "@/lib/env";
import { errorResponse } from "@/lib/http/route";
import { setupTestDatabase, testPgUrl, unique } from "@/test/db";
import { allows, resolveCaller, WARM_UP_API_KEY } from "./caller";
import { warmUpKey, WARM_UP_KEY_ID } from "./warm-up";
import {
  API_KEY_NAME_MAX_LENGTH,
  API_KEY_SCOPE_MIN_ROLE,
  API_KEY_SCOPES,
  ROLES,
  roleAtLeast,
  type Role,
} from "./roles";

// A key acts with at most its owner's current rights, read with the key in one query; a
// verified key is kept in memory until a change to it or its owner is announced
// (lib/db/change-bus.db.test.ts covers changes made by another process).

let teardown: () => Promise<void>;
beforeAll(async () => {
  process.env.BETTER_AUTH_SECRET ??= "caller-test-secret-0123456789abcdef";
  resetEnv();
  ({ teardown } = await setupTestDatabase());
});
afterAll(() => teardown());

const system = { id: null, label: "test" };

async function keyOwnedBy(role: Role): Promise<{ ownerId: string; key: string }> {
  const owner = await users.create(
    { email: `${unique(role)}@example.test`, name: role, role },
    system,
  );
  const { key } = await apiKeys.create(
    { name: unique("k"), scopes: ["ingest", "read"] },
    { id: owner.id, label: owner.email },
  );
  return { ownerId: owner.id, key };
}
const resolve = (key: string) => resolveCaller(new Headers({ "x-api-key": key }));

describe("an API key and its owner", () => {
  it.each(ROLES.map((role) => [role]))(
    "an owner who is %s keeps exactly the scopes that role reaches",
    async (role) => {
      const { key } = await keyOwnedBy(role);
      const caller = await resolve(key);
      expect(caller).toMatchObject({
        kind: "api_key",
        scopes: API_KEY_SCOPES.filter((scope) => roleAtLeast(role, API_KEY_SCOPE_MIN_ROLE[scope])),
      });
    },
  );

  it("loses ingest the moment its owner is demoted to viewer, and gets it back on promotion", async () => {
    const { ownerId, key } = await keyOwnedBy("editor");
    expect(
      (await resolve(key))?.kind === "api_key" &&
        allows((await resolve(key))!, { role: "editor", scope: "ingest" }),
    ).toBe(true);
    await users.setRole(ownerId, "viewer", system);
    const demoted = await resolve(key);
    expect(demoted).toMatchObject({ scopes: ["read"] });
    expect(allows(demoted!, { role: "editor", scope: "ingest" })).toBe(false);
    await users.setRole(ownerId, "approver", system);
    expect(await resolve(key)).toMatchObject({ scopes: ["ingest", "read"] });
  });

  it("is refused while its owner is blocked", async () => {
    const { ownerId, key } = await keyOwnedBy("admin");
    await users.setBlocked(ownerId, true, system);
    expect(await resolve(key)).toBeNull();
    await users.setBlocked(ownerId, false, system);
    expect(await resolve(key)).not.toBeNull();
  });

  it("is refused once its owner is gone", async () => {
    const { ownerId, key } = await keyOwnedBy("editor");
    await db().user.delete({ where: { id: ownerId } });
    expect(await resolve(key)).toBeNull();
  });

  it("cannot be made without a scope, or with a name the form would refuse, and nothing is written", async () => {
    const owner = await users.create(
      { email: `${unique("o")}@example.test`, name: "O", role: "admin" },
      system,
    );
    const actor = { id: owner.id, label: owner.email };
    const before = await Promise.all([db().apikey.count(), db().auditLog.count()]);
    await expect(apiKeys.create({ name: "no-scope", scopes: [] }, actor)).rejects.toThrow(
      BadRequestError,
    );
    await expect(
      apiKeys.create({ name: "n".repeat(API_KEY_NAME_MAX_LENGTH + 1), scopes: ["read"] }, actor),
    ).rejects.toThrow(/1 to 64 characters/);
    expect(await Promise.all([db().apikey.count(), db().auditLog.count()])).toEqual(before);
  });

  it("takes a name of up to the form's limit, 33 to 64 characters included", async () => {
    const owner = await users.create(
      { email: `${unique("o")}@example.test`, name: "O", role: "admin" },
      system,
    );
    for (const length of [33, API_KEY_NAME_MAX_LENGTH]) {
      const { key } = await apiKeys.create(
        { name: "n".repeat(length), scopes: ["read"] },
        { id: owner.id, label: owner.email },
      );
      expect(await resolve(key)).toMatchObject({ name: "n".repeat(length) });
    }
  });
});

describe("a refused key in the log", () => {
  it("is one warning line, except the server's own warm-up key, refused without a line", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      expect(await resolve("chk_not_a_key_anyone_has")).toBeNull();
      expect(warn.mock.calls.map(([line]) => String(line))).toEqual([
        expect.stringMatching(/warning: auth: Failed to validate API key/),
      ]);
      warn.mockClear();
      expect(await resolve(WARM_UP_API_KEY)).toBeNull();
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });
});

describe("this process's warm-up secret", () => {
  it("acts as an ingest key without a database read, and no other process's secret does", async () => {
    const caller = await resolve(warmUpKey());
    expect(caller).toEqual({
      kind: "api_key",
      keyId: WARM_UP_KEY_ID,
      name: "warm-up",
      ownerId: "",
      scopes: ["ingest"],
    });
    expect(await resolve(`${warmUpKey()}x`)).toBeNull();
  });
});

describe("a key's last use", () => {
  it("is recorded in the background, not on the answer's path", async () => {
    const { key } = await keyOwnedBy("editor");
    const caller = await resolve(key);
    expect(caller?.kind).toBe("api_key");
    const keyId = caller!.kind === "api_key" ? caller!.keyId : "";
    const deadline = Date.now() + 30_000;
    let row = await db().apikey.findUniqueOrThrow({ where: { id: keyId } });
    while (!row.lastRequest && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      row = await db().apikey.findUniqueOrThrow({ where: { id: keyId } });
    }
    expect(row.lastRequest).toBeInstanceOf(Date);
  });
});

// The embedded database can be neither exhausted nor made unreachable.
describe.runIf(inject("pgUrl") !== null)("a key check that cannot finish", () => {
  it("is a 503 with Retry-After, never a refusal, while every pooled connection is taken", async () => {
    const { key } = await keyOwnedBy("editor");
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    let holding = 0;
    // Every connection of the pool held by a transaction that waits on the test, not on a clock.
    const holders = Array.from({ length: POOL_SIZE }, () =>
      db().$transaction(
        async (tx) => {
          await tx.$queryRaw`SELECT 1`;
          holding++;
          await gate;
        },
        { timeout: 120_000, maxWait: 120_000 },
      ),
    );
    try {
      const deadline = Date.now() + 60_000;
      while (holding < POOL_SIZE && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      expect(holding).toBe(POOL_SIZE);
      const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
      try {
        const failed = await resolve(key).then(
          () => null,
          (error: unknown) => error,
        );
        expect(failed).toBeInstanceOf(ServiceUnavailableError);
        const response = errorResponse(failed);
        expect(response.status).toBe(503);
        expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
        // Why, once for the outage, not once per request.
        await expect(resolve(key)).rejects.toThrow(ServiceUnavailableError);
        expect(
          warn.mock.calls.filter(([line]) => /API key check could not finish/.test(String(line))),
        ).toHaveLength(1);
      } finally {
        warn.mockRestore();
      }
    } finally {
      release();
      await Promise.all(holders);
    }
    expect(await resolve(key)).toMatchObject({ kind: "api_key" });
  });

  it("is a 503 when the database cannot be reached", async () => {
    const { key } = await keyOwnedBy("editor");
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as { port: number };
    await new Promise<void>((r) => server.close(() => r()));
    const url = new URL(testPgUrl()!);
    url.port = String(port);
    await switchDatabase({ kind: "postgres", url: url.toString() });
    try {
      await expect(resolve(key)).rejects.toThrow(ServiceUnavailableError);
    } finally {
      await switchDatabase({ kind: "postgres", url: testPgUrl()! });
    }
    expect(await resolve(key)).toMatchObject({ kind: "api_key" });
  });
});
