/**
 * Several instances on one PostgreSQL (docs/deployment.md), with real `charter serve`
 * processes on the production build: a first start of two instances at once, and the
 * drain on SIGTERM. No browser: these speak HTTP to the servers and SQL to the database.
 * Needs DATABASE_URL (PostgreSQL): on the embedded database one process holds the data.
 */
import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { E2E_PORT } from "../playwright.config";
import {
  admin,
  freshDatabase,
  instanceEnv,
  spawnServe,
  waitHealthy,
  type ServeProcess,
} from "../bench/support/server";

const onPostgres = Boolean(process.env.DATABASE_URL?.trim());
/** Ports beside the e2e server's (E2E_PORT), so a run with its own E2E_PORT keeps to its own range. */
const PORTS = [E2E_PORT + 1, E2E_PORT + 2, E2E_PORT + 3] as const;
/** A first start migrates, builds nothing (the build exists) and warms up: minutes on a busy machine. */
const START_MS = 300_000;

/** A Java-style or Node stack frame line: what "no stack trace in the log" looks for. */
const STACK_FRAME = /\n\s+at \S+/;
const LINK = /http:\/\/\S+\/api\/auth\/magic-link\/verify\?\S+/g;

function databaseName(label: string): string {
  const base = new URL(process.env.DATABASE_URL!).pathname.slice(1) || "charter";
  return `${base}_${label}`.replace(/[^a-z0-9_]/gi, "_").toLowerCase();
}

function event(session: string, id: string): string {
  return JSON.stringify({ type: "UserPromptSubmit", id, session_id: session, prompt: "hello" });
}

test.describe("several instances on one PostgreSQL", () => {
  test.skip(!onPostgres, "scale-out runs on PostgreSQL (set DATABASE_URL)");
  test.setTimeout(2 * START_MS);

  test("two instances started at once: one applies CHARTER_INIT_*, one prints the link, both become ready, no stack trace", async () => {
    const name = databaseName("scale_out_start");
    const databaseUrl = await freshDatabase(name);
    const initKey = `chk_${randomBytes(24).toString("hex")}`;
    const secret = randomBytes(32).toString("hex");
    const publicUrl = `http://127.0.0.1:${PORTS[0]}`;
    const servers: ServeProcess[] = PORTS.slice(0, 2).map((port) =>
      spawnServe({
        port,
        env: instanceEnv({
          databaseUrl,
          secret,
          publicUrl,
          env: { CHARTER_INIT_API_KEY: initKey, CHARTER_INIT_API_KEY_NAME: "scale-out" },
        }),
      }),
    );
    try {
      await Promise.all(servers.map((s) => waitHealthy(s.url, START_MS)));
      // Both take events with the key one of them stored, at once, with no 401 or 503.
      const answers = await Promise.all(
        servers.flatMap((s, i) =>
          Array.from({ length: 10 }, (_, j) =>
            fetch(`${s.url}/api/v1/events`, {
              method: "POST",
              headers: { "content-type": "application/json", "x-api-key": initKey },
              body: event(`scale-out-${i}-${j}`, `scale-out-${i}-${j}`),
            }).then((r) => r.status),
          ),
        ),
      );
      expect(answers).toEqual(answers.map(() => 200));
      for (const s of servers)
        expect(await (await fetch(`${s.url}/api/health`)).json()).toMatchObject({ status: "ok" });
    } finally {
      const codes = await Promise.all(servers.map((s) => s.signal("SIGTERM")));
      const logs = servers.map((s) => s.output());
      const all = logs.join("\n");
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      expect(all.match(/CHARTER_INIT_API_KEY stored as API key/g) ?? [], all).toHaveLength(1);
      expect(all.match(LINK) ?? [], all).toHaveLength(1);
      expect(all.match(/printed by another start/g) ?? [], all).toHaveLength(1);
      for (const log of logs) {
        expect(log, log).not.toMatch(STACK_FRAME);
        expect(log, log).not.toMatch(/Unique constraint|\berror:/i);
      }
      expect(codes).toEqual([0, 0]);
    }
  });

  test("SIGTERM: the request in flight completes, health answers draining, new requests are refused, exit 0", async () => {
    const name = databaseName("scale_out_drain");
    const databaseUrl = await freshDatabase(name);
    const key = `chk_${randomBytes(24).toString("hex")}`;
    const url = `http://127.0.0.1:${PORTS[2]}`;
    const server = spawnServe({
      port: PORTS[2],
      env: instanceEnv({
        databaseUrl,
        secret: randomBytes(32).toString("hex"),
        publicUrl: url,
        env: { CHARTER_INIT_API_KEY: key },
      }),
    });
    const blocker = new pg.Client({ connectionString: databaseUrl });
    try {
      await waitHealthy(url, START_MS);
      await blocker.connect();
      // The event's writes wait on these locks: a request held in flight until COMMIT below.
      await blocker.query("BEGIN");
      await blocker.query("LOCK TABLE agent_event, agent_session IN ACCESS EXCLUSIVE MODE");
      const slow = fetch(`${url}/api/v1/events`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": key },
        body: event("drain-session", "drain-event"),
      }).then(async (r) => ({ status: r.status, body: await r.text() }));
      await expect
        .poll(
          async () =>
            (
              await blocker.query<{ n: number }>(
                "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()",
              )
            ).rows[0]!.n,
          { timeout: 60_000 },
        )
        .toBeGreaterThan(0);

      void server.signal("SIGTERM", 120_000);
      await expect
        .poll(
          async () => {
            const res = await fetch(`${url}/api/health`);
            return [res.status, ((await res.json()) as { status: string }).status];
          },
          { timeout: 60_000 },
        )
        .toEqual([503, "draining"]);
      const refused = await fetch(`${url}/api/v1/events`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": key },
        body: event("drain-late", "drain-late"),
      }).then(
        (r) => r.status,
        () => "connection refused",
      );
      expect([503, "connection refused"]).toContain(refused);

      await blocker.query("COMMIT");
      const answered = await slow;
      expect(answered.status, answered.body).toBe(200);
      expect(await server.exited).toBe(0);
      const recorded = await blocker.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM agent_event WHERE id IN ('drain-event', 'drain-late')",
      );
      expect(recorded.rows[0]!.n).toBe(1);
      const log = server.output();
      expect(log, log).toMatch(/SIGTERM: draining/);
      expect(log, log).toMatch(/drained; exiting/);
    } finally {
      await blocker.end().catch(() => undefined);
      await server.signal("SIGKILL", 10_000);
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
  });
});
