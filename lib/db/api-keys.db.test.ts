import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupTestDatabase, unique } from "@/test/db";
import { apiKeys } from "./api-keys";
import { db } from "./client";
import { users } from "./users";

// A key is created with its audit row in one transaction: when the audit row cannot be
// written, no key is left behind (it was written by the plugin, then audited apart).

let teardown: () => Promise<void>;
let ownerId: string;
const actor = { id: null, label: "api-keys-test" };

beforeAll(async () => {
  ({ teardown } = await setupTestDatabase());
  ({ id: ownerId } = await users.upsertAdmin(`${unique("owner")}@example.test`, "Owner", actor));
});
afterAll(() => teardown());

describe("creating an API key", () => {
  it("stores it hashed, audited, and it verifies", async () => {
    const name = unique("key");
    const { id, key } = await apiKeys.create({ name, scopes: ["ingest"], ownerId }, actor);
    expect(key).toMatch(/^chk_[A-Za-z]{64}$/);
    const row = await db().apikey.findUniqueOrThrow({ where: { id } });
    expect(row.key).not.toContain(key.slice(4));
    expect(row.start).toBe(key.slice(0, 6));
    const audit = await db().auditLog.findFirst({
      where: { objectId: id, action: "api_key.create" },
    });
    expect(audit?.actorLabel).toBe("api-keys-test");
    const listed = (await apiKeys.list()).find((k) => k.id === id);
    expect(listed).toMatchObject({ name, scopes: ["ingest"], enabled: true });
  });

  it("leaves no key when its audit row cannot be written", async () => {
    const before = await db().apikey.count();
    await db().$executeRawUnsafe(`
      CREATE OR REPLACE FUNCTION charter_test_refuse_key_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.action = 'api_key.create' THEN RAISE EXCEPTION 'audit refused by the test'; END IF;
        RETURN NEW;
      END $$`);
    await db().$executeRawUnsafe(
      `CREATE TRIGGER charter_test_refuse_key_audit BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION charter_test_refuse_key_audit()`,
    );
    try {
      await expect(
        apiKeys.create({ name: unique("unaudited"), scopes: ["ingest"], ownerId }, actor),
      ).rejects.toThrow(/audit refused by the test/);
    } finally {
      await db().$executeRawUnsafe(`DROP TRIGGER charter_test_refuse_key_audit ON audit_log`);
      await db().$executeRawUnsafe(`DROP FUNCTION charter_test_refuse_key_audit()`);
    }
    expect(await db().apikey.count()).toBe(before);
  });

  it("refuses an owner that does not exist, and stores nothing", async () => {
    const before = await db().apikey.count();
    await expect(
      apiKeys.create({ name: unique("orphan"), scopes: ["read"], ownerId: "no-such-user" }, actor),
    ).rejects.toThrow("No user no-such-user to own the API key.");
    expect(await db().apikey.count()).toBe(before);
  });
});
