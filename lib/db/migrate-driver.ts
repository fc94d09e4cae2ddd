import { mkdirSync } from "node:fs";
import path from "node:path";
import type { DatabaseTarget } from "@/lib/env";
import { acquireLock, dataDirLockPath, lockHolder } from "@/lib/lock.mjs";

/** The advisory lock Prisma's schema engine takes on PostgreSQL while it migrates. */
export const PRISMA_ADVISORY_LOCK = 72707369;

/** How long opening the embedded database waits for another process to let it go. */
export const EMBEDDED_LOCK_WAIT_MS = 15_000;

/** One session on the database the runner migrates, held exclusively until close(). */
export type MigrationSession = {
  /** Runs a script of several statements (no parameters). */
  exec(script: string): Promise<void>;
  query<R>(sql: string, params?: unknown[]): Promise<R[]>;
  close(): Promise<void>;
};

/** Thrown when another process keeps the embedded database open past the wait. */
export class DatabaseBusyError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: number | null,
  ) {
    super(
      `The embedded database ${dir} is in use by process ${holder ?? "?"} (lock file ${dataDirLockPath(dir)}): stop it, or use DATABASE_URL with PostgreSQL.`,
    );
  }
}

/**
 * Opens a session that excludes every other migrator: on PostgreSQL Prisma's advisory lock
 * (held by the session, so a crash frees it), on PGlite the data directory's lock file.
 */
export async function openMigrationSession(
  target: DatabaseTarget,
  lockWaitMs: number = EMBEDDED_LOCK_WAIT_MS,
): Promise<MigrationSession> {
  return target.kind === "postgres"
    ? openPostgres(target.url)
    : openEmbedded(target.dir, lockWaitMs);
}

async function openPostgres(url: string): Promise<MigrationSession> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => undefined);
  await client.connect();
  try {
    await client.query(`SELECT pg_advisory_lock(${PRISMA_ADVISORY_LOCK})`);
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return {
    exec: async (script) => void (await client.query(script)),
    query: async <R>(sql: string, params?: unknown[]) =>
      (await client.query(sql, params)).rows as R[],
    close: async () => {
      await client.query(`SELECT pg_advisory_unlock(${PRISMA_ADVISORY_LOCK})`).catch(() => null);
      await client.end().catch(() => undefined);
    },
  };
}

async function openEmbedded(dir: string, lockWaitMs: number): Promise<MigrationSession> {
  mkdirSync(path.dirname(dir), { recursive: true });
  const file = dataDirLockPath(dir);
  const lock = await acquireLock(file, { deadline: Date.now() + lockWaitMs });
  if (!lock) throw new DatabaseBusyError(dir, lockHolder(file));
  const { PGlite } = await import("@electric-sql/pglite");
  let pglite;
  try {
    pglite = new PGlite(dir);
    await pglite.waitReady;
  } catch (error) {
    lock.release();
    throw error;
  }
  const db = pglite;
  return {
    exec: async (script) => void (await db.exec(script)),
    query: async <R>(sql: string, params?: unknown[]) => (await db.query<R>(sql, params)).rows,
    close: async () => {
      try {
        if (!db.closed) await db.close();
      } finally {
        lock.release();
      }
    },
  };
}
