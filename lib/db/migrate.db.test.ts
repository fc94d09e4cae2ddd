import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import type { DatabaseTarget } from "@/lib/env";
import { migrateWithPrisma, unique } from "@/test/db";
import { migrateDatabase, MigrationError, readMigrations } from "./migrate";
import { openMigrationSession } from "./migrate-driver";

const MIGRATIONS_DIR = path.resolve(import.meta.dirname, "../../prisma/migrations");
const LOCAL = readMigrations(MIGRATIONS_DIR);
const pgUrl = inject("pgUrl");
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A new, empty database of the kind the suite runs on, and how to hand it to Prisma's CLI. */
async function freshDatabase(): Promise<{
  target: DatabaseTarget;
  prisma: { databaseUrl?: string; dataDir?: string };
}> {
  if (!pgUrl) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "charter-runner-"));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    return { target: { kind: "embedded", dir: path.join(dataDir, "pglite") }, prisma: { dataDir } };
  }
  const name = unique("charter_test_runner").replace(/-/g, "_");
  const admin = new pg.Client({
    connectionString: Object.assign(new URL(pgUrl), { pathname: "/postgres" }).toString(),
  });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  cleanups.push(async () => {
    const client = new pg.Client({
      connectionString: Object.assign(new URL(pgUrl), { pathname: "/postgres" }).toString(),
    });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.end();
  });
  const url = Object.assign(new URL(pgUrl), { pathname: `/${name}` }).toString();
  return { target: { kind: "postgres", url }, prisma: { databaseUrl: url } };
}

/** Everything a migration shapes in the public schema, in a stable order. */
const SCHEMA_QUERIES = {
  columns: `SELECT table_name, column_name, ordinal_position, data_type, udt_name, is_nullable,
      column_default, character_maximum_length, numeric_precision
    FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 3`,
  constraints: `SELECT conrelid::regclass::text AS on_table, conname, contype,
      pg_get_constraintdef(oid) AS definition
    FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2`,
  indexes: `SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1, 2`,
  functions: `SELECT proname, pg_get_functiondef(oid) AS definition
    FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY 1`,
  triggers: `SELECT tgname, pg_get_triggerdef(oid) AS definition FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1`,
  types: `SELECT typname, typtype FROM pg_type WHERE typnamespace = 'public'::regnamespace ORDER BY 1`,
};

type Recorded = {
  migration_name: string;
  checksum: string;
  finished_at: unknown;
  applied_steps_count: number;
  logs: string | null;
};

/** The schema, the migration records, and which of `tables` exist. */
async function inspect(target: DatabaseTarget, tables: string[] = []) {
  const session = await openMigrationSession(target);
  try {
    const schema: Record<string, unknown[]> = {};
    for (const [key, sql] of Object.entries(SCHEMA_QUERIES)) schema[key] = await session.query(sql);
    const recorded = await session.query<Recorded>(
      `SELECT migration_name, checksum, finished_at, applied_steps_count, logs
        FROM _prisma_migrations ORDER BY migration_name, started_at`,
    );
    const present = await session.query<{ name: string }>(
      `SELECT relname AS name FROM pg_class WHERE relname = ANY($1::text[])`,
      [tables],
    );
    return { schema, recorded, present: present.map((r) => r.name) };
  } finally {
    await session.close();
  }
}

describe(`the migration runner on ${pgUrl ? "PostgreSQL" : "PGlite"}`, () => {
  it("gives the schema and the _prisma_migrations records of prisma migrate deploy", async () => {
    const byPrisma = await freshDatabase();
    const byRunner = await freshDatabase();
    const [, result] = await Promise.all([
      migrateWithPrisma(byPrisma.prisma),
      migrateDatabase(byRunner.target, { migrationsDir: MIGRATIONS_DIR }),
    ]);
    expect(result.applied).toEqual(LOCAL.map((m) => m.name));
    const expected = await inspect(byPrisma.target);
    const actual = await inspect(byRunner.target);
    expect(expected.schema.columns!.length).toBeGreaterThan(50);
    expect(actual.schema).toEqual(expected.schema);
    const summary = (rows: Recorded[]) =>
      rows.map((r) => ({
        name: r.migration_name,
        checksum: r.checksum,
        finished: r.finished_at !== null,
        steps: r.applied_steps_count,
        logs: r.logs,
      }));
    expect(summary(actual.recorded)).toEqual(summary(expected.recorded));
    expect(actual.recorded.map((r) => r.checksum)).toEqual(LOCAL.map((m) => m.checksum));
    // Prisma reads the runner's records as its own: nothing left for it to apply.
    expect(await migrateWithPrisma(byRunner.prisma)).toMatch(/No pending migrations/);
    // Nor for the runner, again.
    expect(await migrateDatabase(byRunner.target, { migrationsDir: MIGRATIONS_DIR })).toEqual({
      applied: [],
    });
  });

  it("applies each migration once when two runners start at once", async () => {
    const { target } = await freshDatabase();
    const runs = await Promise.all([
      migrateDatabase(target, { migrationsDir: MIGRATIONS_DIR }),
      migrateDatabase(target, { migrationsDir: MIGRATIONS_DIR }),
    ]);
    expect([...runs[0]!.applied, ...runs[1]!.applied].sort()).toEqual(LOCAL.map((m) => m.name));
    const { recorded } = await inspect(target);
    expect(recorded.map((r) => r.migration_name)).toEqual(LOCAL.map((m) => m.name));
  });

  it("leaves nothing of a failing migration but its failed record, and then refuses to run", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "charter-migrations-"));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const first = LOCAL[0]!.name;
    cpSync(path.join(MIGRATIONS_DIR, first), path.join(dir, first), { recursive: true });
    const broken = "29990101000000_broken";
    mkdirSync(path.join(dir, broken));
    writeFileSync(
      path.join(dir, broken, "migration.sql"),
      `CREATE TABLE "half_done" ("id" INTEGER);\nINSERT INTO "no_such_table" VALUES (1);\n`,
    );
    const { target } = await freshDatabase();
    const failure = await migrateDatabase(target, { migrationsDir: dir }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(MigrationError);
    expect((failure as Error).message).toMatch(
      /^Migration 29990101000000_broken failed: relation "no_such_table" does not exist \(42P01\)\. Nothing of it was applied\.$/,
    );
    const after = await inspect(target, ["half_done"]);
    expect(after.present).toEqual([]);
    expect(after.recorded.map((r) => [r.migration_name, r.finished_at !== null])).toEqual([
      [first, true],
      [broken, false],
    ]);
    const failed = after.recorded[1]!;
    expect(failed.applied_steps_count).toBe(0);
    expect(failed.logs).toMatch(/relation "no_such_table" does not exist/);
    await expect(migrateDatabase(target, { migrationsDir: dir })).rejects.toThrow(
      /^Migration 29990101000000_broken failed \(started .*\) and is recorded as failed, so no migration is applied \(Prisma P3009\)/,
    );
  });
});
