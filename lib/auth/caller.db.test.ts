import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { apiKeys } from "@/lib/db/api-keys";
import { db } from "@/lib/db/client";
import { users } from "@/lib/db/users";
import { BadRequestError } from "@/lib/errors";
import { resetEnv } from "@/lib/env";
import { setupTestDatabase, unique } from "@/test/db";
import { allows, resolveCaller, WARM_UP_API_KEY } from "./caller";
import {
  API_KEY_NAME_MAX_LENGTH,
  API_KEY_SCOPE_MIN_ROLE,
  API_KEY_SCOPES,
  ROLES,
  roleAtLeast,
  type Role,
} from "./roles";

// A key acts with at most its owner's current rights: the owner is read on every request.

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
