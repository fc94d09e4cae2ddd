import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { GET as listTurns } from "@/app/api/v1/turns/route";
import { apiKeys } from "@/lib/db/api-keys";
import pg from "pg";
import {
  CONNECT_TIMEOUT_MS,
  db,
  POOL_SIZE,
  switchDatabase,
  type DatabaseTarget,
} from "@/lib/db/client";
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
    // Every pooled connection waits on a lock this test holds from outside the pool, so the
    // pool stays exhausted for exactly as long as the test needs, however slow the machine.
    const LOCK = 727001;
    const gate = new pg.Client({ connectionString: (target as { url: string }).url });
    await gate.connect();
    await gate.query("SELECT pg_advisory_lock($1)", [LOCK]);
    try {
      const holders = Array.from({ length: POOL_SIZE }, () =>
        db().$transaction((tx) => tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK})`, {
          timeout: 120_000,
        }),
      );
      // Every connection of the pool is taken once POOL_SIZE sessions wait on the lock.
      for (let waiting = 0; waiting < POOL_SIZE;) {
        const { rows } = await gate.query<{ n: string }>(
          "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND NOT granted",
          [LOCK],
        );
        waiting = Number(rows[0]!.n);
      }
      const started = performance.now();
      const res = await turns({ "x-api-key": key });
      const waited = performance.now() - started;
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(await res.json()).toEqual({
        error: { code: "unavailable", message: "The database is unavailable; try again shortly." },
      });
      // It waited for a connection (CONNECT_TIMEOUT_MS) before it said so; a timer never fires early.
      expect(waited).toBeGreaterThanOrEqual(CONNECT_TIMEOUT_MS - 50);
      await gate.query("SELECT pg_advisory_unlock($1)", [LOCK]);
      await Promise.all(holders);
    } finally {
      await gate.end();
    }
    expect((await turns({ "x-api-key": key })).status).toBe(200);
  }, 180_000);
});
