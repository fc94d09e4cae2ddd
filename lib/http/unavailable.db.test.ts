import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { GET as listTurns } from "@/app/api/v1/turns/route";
import { apiKeys } from "@/lib/db/api-keys";
import { db, POOL_SIZE, switchDatabase, type DatabaseTarget } from "@/lib/db/client";
import { resetEnv } from "@/lib/env";
import { route } from "@/lib/http/route";
import { setupTestDatabase, unique } from "@/test/db";
import { sessionCookie } from "@/test/sign-in";

// A database that could not be asked must never look like a refused credential: the
// hook drops an event on 401 and spools it on 503.

let target: DatabaseTarget;
let teardown: () => Promise<void>;
let key: string;
let revokedKey: string;
let cookie: string;

/** A port on this machine that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Connection failures and pool exhaustion are PostgreSQL's; the embedded database has neither. */
const onPostgres = inject("pgUrl") !== null;

const context = { params: Promise.resolve({}) };
const turns = (headers: Record<string, string>) =>
  listTurns(new Request("http://127.0.0.1/api/v1/turns", { headers }), context);
const countUsers = route("public", async () => ({ users: await db().user.count() }));

beforeAll(async () => {
  process.env.BETTER_AUTH_SECRET ??= "unavailable-test-secret-0123456789abcdef";
  resetEnv();
  ({ target, teardown } = await setupTestDatabase());
  const email = `${unique("unavailable")}@example.test`;
  const id = randomUUID();
  await db().user.create({
    data: { id, email, name: "Reader", role: "viewer", emailVerified: true },
  });
  ({ key } = await apiKeys.create({ name: "reader", scopes: ["read"] }, { id, label: email }));
  const revoked = await apiKeys.create({ name: "revoked", scopes: ["read"] }, { id, label: email });
  await apiKeys.revoke(revoked.id, { id, label: email });
  revokedKey = revoked.key;
  cookie = await sessionCookie(email);
});
afterAll(() => teardown());

describe("with the database up", () => {
  it("serves a valid key, a session, and refuses a wrong or revoked key with 401", async () => {
    expect((await turns({ "x-api-key": key })).status).toBe(200);
    expect((await turns({ cookie })).status).toBe(200);
    for (const refused of [`${key}x`, revokedKey]) {
      const res = await turns({ "x-api-key": refused });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({
        error: { code: "unauthorized", message: "Sign in or send a valid API key." },
      });
    }
  });
});

describe.runIf(onPostgres)("with PostgreSQL unreachable", () => {
  beforeAll(async () => {
    const url = new URL((target as { url: string }).url);
    url.port = String(await closedPort());
    await switchDatabase({ kind: "postgres", url: url.toString() });
  });
  afterAll(() => switchDatabase(target));

  it.each([
    ["a valid key", () => ({ "x-api-key": key })],
    ["a wrong key", () => ({ "x-api-key": `${key}x` })],
    ["a session", () => ({ cookie })],
  ])("answers %s with 503 and Retry-After, never 401", async (_, headers) => {
    const res = await turns(headers());
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(await res.json()).toEqual({
      error: { code: "unavailable", message: "The database is unavailable; try again shortly." },
    });
  });

  it("maps a failure inside a handler to 503 and Retry-After, not 500", async () => {
    const res = await countUsers(new Request("http://127.0.0.1/count"), context);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(await res.json()).toEqual({
      error: { code: "unavailable", message: "The database is unavailable; try again shortly." },
    });
  });
});

describe.runIf(onPostgres)("with the pool exhausted", () => {
  it("answers a valid key with 503 after the connection timeout, then serves it once a connection is free", async () => {
    const holders = Array.from({ length: POOL_SIZE }, () =>
      db().$transaction((tx) => tx.$executeRaw`SELECT pg_sleep(7)`, { timeout: 20_000 }),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const started = performance.now();
    const res = await turns({ "x-api-key": key });
    const waited = performance.now() - started;
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(await res.json()).toEqual({
      error: { code: "unavailable", message: "The database is unavailable; try again shortly." },
    });
    expect(waited).toBeGreaterThan(4_000);
    expect(waited).toBeLessThan(10_000);
    await Promise.all(holders);
    expect((await turns({ "x-api-key": key })).status).toBe(200);
  }, 30_000);
});
