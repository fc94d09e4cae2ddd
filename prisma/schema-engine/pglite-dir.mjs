// @ts-check
// Opening an embedded PGlite data directory from the schema engine.
//
// PGlite has no cross-process locking: two processes with the same data
// directory open corrupt it. The Prisma CLI starts a new engine process per
// command (and stops the previous one with SIGTERM without waiting for it to
// exit), so the engine takes the directory's lock file, `<dir>.lock`, holding
// its pid, and waits for a live holder to let go; a lock left by a process that
// no longer exists is taken over. The lock is Charter's one lock helper
// (lib/lock.mjs), the same file the runtime (lib/db/client.ts, the migration
// runner lib/db/migrate.ts) takes, so the stand-in and the app exclude each other.

import { mkdirSync } from "node:fs";
import path from "node:path";

import { PGlite } from "@electric-sql/pglite";

import { acquireLock, dataDirLockPath, lockHolder } from "../../lib/lock.mjs";

const LOCK_WAIT_MS = Number(process.env.CHARTER_PGLITE_LOCK_TIMEOUT_MS ?? 15_000);

/**
 * Takes `<dir>.lock`, waiting for a live holder; returns a release function.
 * @param {string} dir
 * @param {(level: string, message: string) => void} log
 * @returns {Promise<() => void>}
 */
export async function lockDataDir(dir, log) {
  const file = dataDirLockPath(dir);
  if (lockHolder(file) === process.pid) {
    throw new Error(`The PGlite data directory ${dir} is already open in this process`);
  }
  const lock = await acquireLock(file, {
    deadline: Date.now() + LOCK_WAIT_MS,
    onWait: (holder) => log("INFO", `waiting for process ${holder} to release ${dir}`),
  });
  if (!lock) {
    throw new Error(
      `The PGlite data directory ${dir} is in use by process ${lockHolder(file) ?? "?"} (lock file ${file}). ` +
        "Stop the process that has it open (e.g. the Charter server) and retry.",
    );
  }
  return () => lock.release();
}

/**
 * Opens (creating it when missing) a PGlite data directory under the lock.
 * Closing the returned database releases the lock.
 *
 * @param {string} dir
 * @param {(level: string, message: string) => void} log
 */
export async function openDataDir(dir, log) {
  mkdirSync(path.dirname(dir), { recursive: true });
  const release = await lockDataDir(dir, log);
  let db;
  try {
    db = new PGlite(dir);
    await db.waitReady;
  } catch (error) {
    release();
    throw error;
  }
  const close = db.close.bind(db);
  db.close = async () => {
    try {
      if (!db.closed) await close();
    } finally {
      release();
    }
  };
  return db;
}
