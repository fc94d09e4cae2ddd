import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { inject } from "vitest";
import { closeDb, switchDatabase } from "@/lib/db/client";
import type { DatabaseTarget } from "@/lib/env";

const ROOT = path.resolve(import.meta.dirname, "..");
const execFileAsync = promisify(execFile);

declare module "vitest" {
  export interface ProvidedContext {
    /** DATABASE_URL (the server the db tests use), when it is set. */
    pgUrl: string | null;
    /** The migrated PostgreSQL database that each test file clones, when DATABASE_URL is set. */
    pgTemplate: string | null;
    /** A migrated PGlite directory that each test file copies, when it is not. */
    pgliteTemplate: string | null;
  }
}

/** Refuses to run tests against anything but a database on this machine. */
export function assertLocal(url: string): void {
  const host = new URL(url).hostname;
  if (!["127.0.0.1", "localhost", "::1", "[::1]"].includes(host)) {
    throw new Error(
      `Refusing to run database tests against ${host}: DATABASE_URL must point at this machine.`,
    );
  }
}

/**
 * Applies the repository's migrations with the stock Prisma CLI; its output. A child process
 * that is awaited, so that a test can do other work meanwhile.
 */
export async function migrateWithPrisma(target: {
  databaseUrl?: string;
  dataDir?: string;
}): Promise<string> {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  if (target.databaseUrl) env.DATABASE_URL = target.databaseUrl;
  if (target.dataDir) env.CHARTER_DATA_DIR = target.dataDir;
  try {
    const { stdout, stderr } = await execFileAsync(
      process.execPath,
      [path.join(ROOT, "node_modules/prisma/build/index.js"), "migrate", "deploy"],
      { cwd: ROOT, env },
    );
    return stdout + stderr;
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`prisma migrate deploy failed:\n${stdout}\n${stderr}`, { cause: error });
  }
}

/** `url` with its database name replaced. */
export function databaseUrl(url: string, database: string): string {
  return Object.assign(new URL(url), { pathname: `/${database}` }).toString();
}

/** Runs `sql` on the server of `url`, connected to its maintenance database. */
export async function onServer(url: string, sql: string): Promise<pg.QueryResult> {
  const admin = new pg.Client({ connectionString: databaseUrl(url, "postgres") });
  await admin.connect();
  try {
    return await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** A new PostgreSQL database cloned from the run's migrated template (dropped at the run's end): its URL. */
export async function cloneTemplateDatabase(): Promise<string> {
  const server = inject("pgUrl");
  const template = inject("pgTemplate");
  if (!server || !template) throw new Error("No PostgreSQL template: DATABASE_URL is not set.");
  const name = `${template}_${Math.random().toString(36).slice(2, 10)}`;
  // Two clones of one template may start together; PostgreSQL then refuses one while the
  // other still holds the template (55006): wait for it.
  for (let attempt = 1; ; attempt++) {
    try {
      await onServer(server, `CREATE DATABASE "${name}" TEMPLATE "${template}"`);
      return databaseUrl(server, name);
    } catch (error) {
      if ((error as { code?: string }).code !== "55006" || attempt === 50) throw error;
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  }
}

let fileDatabaseUrl: string | null = null;

/**
 * On PostgreSQL, gives the test file that is loading a database of its own, cloned from the
 * migrated template, and makes it the file's DATABASE_URL (for `env()` and child processes).
 * Run by the db project's setup file before each test file.
 */
export async function cloneFileDatabase(): Promise<void> {
  if (!inject("pgTemplate")) return;
  fileDatabaseUrl = await cloneTemplateDatabase();
  process.env.DATABASE_URL = fileDatabaseUrl;
}

/** This test file's own migrated PostgreSQL database, or null on PGlite. */
export function testPgUrl(): string | null {
  if (inject("pgTemplate") && !fileDatabaseUrl)
    throw new Error("No database of this file: the db project's setup file did not run.");
  return fileDatabaseUrl;
}

/**
 * Gives the calling test file a migrated database and points `db()` at it:
 * the file's own PostgreSQL clone of the migrated template when DATABASE_URL is set,
 * else a private copy of a migrated PGlite.
 */
export async function setupTestDatabase(): Promise<{
  target: DatabaseTarget;
  teardown: () => Promise<void>;
}> {
  const pgUrl = testPgUrl();
  if (pgUrl) {
    const target: DatabaseTarget = { kind: "postgres", url: pgUrl };
    await switchDatabase(target);
    return { target, teardown: closeDb };
  }
  const template = inject("pgliteTemplate");
  if (!template) throw new Error("The db test setup provided no database.");
  const dir = mkdtempSync(path.join(os.tmpdir(), "charter-test-pglite-"));
  cpSync(template, dir, { recursive: true });
  const target: DatabaseTarget = { kind: "embedded", dir };
  await switchDatabase(target);
  return {
    target,
    teardown: async () => {
      await closeDb();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Copies the run's migrated PGlite template to `<dataDir>/pglite`, the database the CLI opens
 * with CHARTER_DATA_DIR=dataDir, so that its first command does not create and migrate one
 * (most of that command's time). Does nothing when the run has no PGlite template
 * (DATABASE_URL is set): the CLI then makes its own.
 */
export function copyPgliteTemplate(dataDir: string): void {
  const template = inject("pgliteTemplate");
  if (template) cpSync(template, path.join(dataDir, "pglite"), { recursive: true });
}

/**
 * An embedded database at `<dataDir>/pglite` whatever DATABASE_URL says, with `db()` pointed
 * at it, for tests of what only the embedded database has (its head file): a copy of the
 * run's migrated PGlite template on a PGlite run, else migrated here (a few seconds).
 */
export async function setupEmbeddedTestDatabase(dataDir: string): Promise<DatabaseTarget> {
  const target: DatabaseTarget = { kind: "embedded", dir: path.join(dataDir, "pglite") };
  if (inject("pgliteTemplate")) copyPgliteTemplate(dataDir);
  else {
    const { migrateDatabase } = await import("@/lib/db/migrate");
    await migrateDatabase(target, { migrationsDir: path.join(ROOT, "prisma", "migrations") });
  }
  await switchDatabase(target);
  return target;
}

/**
 * setupTestDatabase(), then the shipped constitution imported as the version in force
 * (what `charter init` does), for tests that edit, read or score against it.
 */
export async function setupTestDatabaseWithConstitution(): ReturnType<typeof setupTestDatabase> {
  const setup = await setupTestDatabase();
  // Imported here, not at the top: the global setup loads this module outside any test file.
  const { constitutionVersions } = await import("@/lib/db/constitution");
  const { readConstitutionFiles, SHIPPED_CONSTITUTION_DIR } =
    await import("@/lib/files/constitution");
  await constitutionVersions.importIfEmpty(
    await readConstitutionFiles(SHIPPED_CONSTITUTION_DIR),
    "shipped",
  );
  return setup;
}

/** A string unique to this run, for making test data that cannot collide. */
export function unique(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}
