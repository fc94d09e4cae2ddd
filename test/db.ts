import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { closeDb, switchDatabase } from "@/lib/db/client";
import type { DatabaseTarget } from "@/lib/env";

const ROOT = path.resolve(import.meta.dirname, "..");

declare module "vitest" {
  export interface ProvidedContext {
    /** PostgreSQL URL of the migrated test database, when DATABASE_URL is set. */
    pgUrl: string | null;
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

/** Applies the repository's migrations with the stock Prisma CLI. */
export function migrateWithPrisma(target: { databaseUrl?: string; dataDir?: string }): string {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  if (target.databaseUrl) env.DATABASE_URL = target.databaseUrl;
  if (target.dataDir) env.CHARTER_DATA_DIR = target.dataDir;
  const result = spawnSync(
    process.execPath,
    [path.join(ROOT, "node_modules/prisma/build/index.js"), "migrate", "deploy"],
    { cwd: ROOT, env, encoding: "utf8" },
  );
  if (result.status !== 0)
    throw new Error(`prisma migrate deploy failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout + result.stderr;
}

/**
 * Gives the calling test file a migrated database and points `db()` at it:
 * the shared PostgreSQL test database when DATABASE_URL is set (tests make
 * unique data instead of truncating), else a private copy of a migrated PGlite.
 */
export async function setupTestDatabase(): Promise<{
  target: DatabaseTarget;
  teardown: () => Promise<void>;
}> {
  const pgUrl = inject("pgUrl");
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

/** A string unique to this run, for making test data that cannot collide. */
export function unique(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}
