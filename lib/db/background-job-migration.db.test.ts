import { cpSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { PGlite } from "@electric-sql/pglite";
import { describe, expect, inject, it } from "vitest";
import type { DatabaseTarget } from "@/lib/env";
import { unique } from "@/test/db";
import { migrateDatabase } from "./migrate";
import { migrationNames } from "./migration-state";

// A database migrated before the leased job table was renamed keeps its jobs: same rows,
// same ids, the id sequence going on from where it was, the checks still in force.

const MIGRATIONS_DIR = path.resolve(import.meta.dirname, "../../prisma/migrations");
const RENAME = "20261128170000_background_job";

/** The repository's migrations before the rename, as a migrations directory of their own. */
function migrationsBeforeRename(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "charter-job-mig-src-"));
  for (const name of migrationNames(MIGRATIONS_DIR).filter((n) => n < RENAME))
    cpSync(path.join(MIGRATIONS_DIR, name), path.join(dir, name), { recursive: true });
  return dir;
}

const JOBS_BEFORE = `
  INSERT INTO recompute_job (id, kind, weight_set_id, status, total, done, cursor, attempts)
    VALUES (41, 'recompute', 1, 'running', 200, 150, 'turn-150', 2);
  INSERT INTO recompute_job (id, kind, session_id, status) VALUES (42, 'reflect', 'session-a', 'queued');
  SELECT setval('recompute_job_id_seq', 42);`;

type Query = <R>(sql: string) => Promise<R[]>;

async function expectJobsKept(query: Query): Promise<void> {
  const tables = await query<{ tablename: string }>(
    `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename LIKE '%job'`,
  );
  expect(tables.map((t) => t.tablename)).toEqual(["background_job"]);
  expect(
    await query(
      `SELECT id, kind, weight_set_id, session_id, status, total, done, cursor, attempts FROM background_job ORDER BY id`,
    ),
  ).toEqual([
    {
      id: 41,
      kind: "recompute",
      weight_set_id: 1,
      session_id: null,
      status: "running",
      total: 200,
      done: 150,
      cursor: "turn-150",
      attempts: 2,
    },
    {
      id: 42,
      kind: "reflect",
      weight_set_id: null,
      session_id: "session-a",
      status: "queued",
      total: 0,
      done: 0,
      cursor: null,
      attempts: 0,
    },
  ]);
  const [next] = await query<{ id: number }>(
    `INSERT INTO background_job (kind, weight_set_id) VALUES ('recompute', 2) RETURNING id`,
  );
  expect(next?.id).toBe(43);
  // Every name the table's objects carry, NOT NULL constraints included (named on PostgreSQL 18).
  const names = (
    await query<{ name: string }>(`
      SELECT conname AS name FROM pg_constraint WHERE conrelid = 'background_job'::regclass
      UNION SELECT indexname FROM pg_indexes WHERE tablename = 'background_job'
      UNION SELECT pg_get_serial_sequence('background_job', 'id')`)
  ).map((n) => n.name);
  expect(names.filter((n) => n.includes("recompute"))).toEqual([]);
  expect(names).toEqual(
    expect.arrayContaining([
      "public.background_job_id_seq",
      "background_job_kind_check",
      "background_job_kind_status_idx",
      "background_job_pkey",
      "background_job_status_check",
    ]),
  );
  await expect(
    query(`INSERT INTO background_job (kind, status) VALUES ('reflect', 'paused')`),
  ).rejects.toThrow(/background_job_status_check/);
}

/** Migrates `target` to just before the rename, adds jobs, then migrates it the rest of the way. */
async function migrateAcrossRename(target: DatabaseTarget, seed: () => Promise<void>) {
  const before = migrationsBeforeRename();
  try {
    const first = await migrateDatabase(target, { migrationsDir: before });
    expect(first.applied.at(-1)).not.toBe(RENAME);
  } finally {
    rmSync(before, { recursive: true, force: true });
  }
  await seed();
  const rest = await migrateDatabase(target, { migrationsDir: MIGRATIONS_DIR });
  expect(rest.applied).toContain(RENAME);
}

describe("the background_job migration", () => {
  it("keeps an embedded database's queued and running jobs", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "charter-job-mig-"));
    try {
      await migrateAcrossRename({ kind: "embedded", dir }, async () => {
        const pglite = new PGlite(dir);
        await pglite.exec(JOBS_BEFORE);
        await pglite.close();
      });
      const pglite = new PGlite(dir);
      try {
        await expectJobsKept(async <R>(sql: string) => (await pglite.query<R>(sql)).rows);
      } finally {
        await pglite.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!inject("pgUrl"))("keeps a PostgreSQL database's queued and running jobs", async () => {
    const server = new URL(inject("pgUrl")!);
    const name = unique("charter_test_job_mig").replace(/-/g, "_");
    const url = Object.assign(new URL(server), { pathname: `/${name}` }).toString();
    const admin = new pg.Client({
      connectionString: Object.assign(new URL(server), { pathname: "/postgres" }).toString(),
    });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await migrateAcrossRename({ kind: "postgres", url }, async () => {
        await client.query(JOBS_BEFORE);
      });
      await expectJobsKept(async <R>(sql: string) => (await client.query(sql)).rows as R[]);
    } finally {
      await client.end().catch(() => undefined);
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    }
  });
});
