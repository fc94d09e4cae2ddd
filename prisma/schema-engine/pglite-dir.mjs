// Opening an embedded PGlite data directory from the schema engine.
//
// PGlite has no cross-process locking: two processes with the same data
// directory open corrupt it. The Prisma CLI starts a new engine process per
// command (and stops the previous one with SIGTERM without waiting for it to
// exit), so the engine takes a lock file next to the directory, `<dir>.lock`,
// holding its pid, and waits for a live holder to let go. A lock left by a
// process that no longer exists is taken over.

import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

import { PGlite } from "@electric-sql/pglite";

const LOCK_WAIT_MS = Number(process.env.CHARTER_PGLITE_LOCK_TIMEOUT_MS ?? 15_000);

export function lockPath(dir) {
  return `${dir}.lock`;
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM"; // exists, owned by someone else
  }
}

/** Takes `<dir>.lock`, waiting for a live holder; returns a release function. */
export async function lockDataDir(dir, log) {
  const file = lockPath(dir);
  const deadline = Date.now() + LOCK_WAIT_MS;
  let announced = false;
  for (;;) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      const release = () => {
        process.removeListener("exit", release);
        try {
          if (readFileSync(file, "utf8").trim() === String(process.pid)) unlinkSync(file);
        } catch {
          // already gone
        }
      };
      // Also release on any exit path (the process is then no longer using the directory).
      process.on("exit", release);
      return release;
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
    }
    let holder = NaN;
    try {
      holder = Number.parseInt(readFileSync(file, "utf8"), 10);
    } catch {
      continue; // released between our open and read: retry at once
    }
    if (holder === process.pid) {
      throw new Error(`The PGlite data directory ${dir} is already open in this process`);
    }
    if (!Number.isInteger(holder) || !isAlive(holder)) {
      // Stale (holder gone, or a half-written file): remove it and retry.
      try {
        unlinkSync(file);
      } catch {
        // someone else removed it first
      }
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `The PGlite data directory ${dir} is in use by process ${holder} (lock file ${file}). ` +
          "Stop the process that has it open (e.g. the Charter server) and retry.",
      );
    }
    if (!announced) {
      log("INFO", `waiting for process ${holder} to release ${dir}`);
      announced = true;
    }
    await sleep(100);
  }
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
