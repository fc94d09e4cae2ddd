import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveCaller } from "@/lib/auth/caller";
import { ensureAdmin } from "@/lib/auth/bootstrap";
import { apiKeys } from "@/lib/db/api-keys";
import { db } from "@/lib/db/client";
import { parseEnv, resetEnv } from "@/lib/env";
import { setupTestDatabase, unique } from "@/test/db";
import { applyInit } from "./init";

let teardown: () => Promise<void>;
beforeAll(async () => {
  process.env.BETTER_AUTH_SECRET ??= "init-test-secret-0123456789abcdefghij";
  resetEnv();
  ({ teardown } = await setupTestDatabase());
});
afterAll(() => teardown());

/** A secret of the length the variable demands, unique to this run. */
const secretFor = (label: string) =>
  `chk_${unique(label).replace(/[^a-z0-9]/gi, "")}`.padEnd(48, "0");
const asKey = (key: string) => new Headers({ "x-api-key": key });

describe("applyInit", () => {
  it("does nothing without CHARTER_INIT_API_KEY", async () => {
    expect(await applyInit(parseEnv({}))).toEqual({ apiKey: null });
  });

  it("stores the key once, hashed, owned by the first admin, audited; later starts change nothing", async () => {
    const secret = secretFor("init");
    const name = unique("headless");
    const e = parseEnv({
      CHARTER_INIT_API_KEY: secret,
      CHARTER_INIT_API_KEY_NAME: name,
      CHARTER_INIT_API_KEY_SCOPE: "ingest,read",
    });

    const first = await applyInit(e);
    expect(first).toEqual({ apiKey: { id: expect.any(String), name, created: true } });
    const id = first.apiKey?.id ?? "";
    expect(await applyInit(e)).toEqual({ apiKey: { id, name, created: false } });

    const rows = await db().apikey.findMany({ where: { name } });
    expect(rows).toHaveLength(1);
    expect(rows[0]?.key).not.toContain(secret);
    expect(rows[0]?.start).toBe(secret.slice(0, 6));
    const owner = await ensureAdmin(e.CHARTER_ADMIN_EMAIL);
    expect(await resolveCaller(asKey(secret))).toEqual({
      kind: "api_key",
      keyId: id,
      name,
      ownerId: owner.id,
      scopes: ["ingest", "read"],
    });

    const audit = await db().auditLog.findMany({ where: { objectType: "api_key", objectId: id } });
    expect(audit.map((a) => [a.action, a.actorLabel])).toEqual([
      ["api_key.create", "env:CHARTER_INIT"],
    ]);
    expect(audit[0]?.after).toEqual({
      name,
      scopes: ["ingest", "read"],
      start: secret.slice(0, 6),
      ownerId: owner.id,
    });
  });

  it("keeps a revoked key revoked on the next start", async () => {
    const secret = secretFor("revoked");
    const e = parseEnv({
      CHARTER_INIT_API_KEY: secret,
      CHARTER_INIT_API_KEY_NAME: unique("revoked"),
    });
    const id = (await applyInit(e)).apiKey?.id ?? "";
    expect(await apiKeys.revoke(id, { id: null, label: "test" })).toBe(true);
    expect(await applyInit(e)).toMatchObject({ apiKey: { id, created: false } });
    expect(await resolveCaller(asKey(secret))).toBeNull();
  });

  it("stores one key when several servers start at once", async () => {
    const name = unique("racing");
    const e = parseEnv({
      CHARTER_INIT_API_KEY: secretFor("racing"),
      CHARTER_INIT_API_KEY_NAME: name,
    });
    const outcomes = await Promise.all([applyInit(e), applyInit(e), applyInit(e)]);
    expect(outcomes.filter((o) => o.apiKey?.created)).toHaveLength(1);
    expect(new Set(outcomes.map((o) => o.apiKey?.id)).size).toBe(1);
    expect(await db().apikey.count({ where: { name } })).toBe(1);
  });
});
