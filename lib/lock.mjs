// @ts-check
// One lock-file protocol for every cross-process lock in Charter: the embedded database's
// `<dir>.lock` (the CLI, the Next server, the migration runner and the dev-only schema-engine
// stand-in all take it), and the hook spool's replay lock. Plain JavaScript with JSDoc types
// so that the stand-in (run by Node without a TypeScript step) imports the same code; no
// dependencies, a few syscalls, because the hook bundles it and must answer within a second.
//
// Protocol: the lock is a file holding the holder's pid in decimal. It is created whole
// (written under a temporary name, then hard-linked into place, which fails when the lock
// exists), so a reader never sees it half-written. It is abandoned, and taken over, when the
// pid is not a live process (or not a pid at all), or, when the taker gives a stale limit,
// when the file was not modified for that long. A takeover renames the file aside and
// checks it is the one judged abandoned (same inode) before deleting it, so two takers never
// both win.

import {
  linkSync,
  renameSync,
  readFileSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/** How long a waiting taker sleeps between attempts. */
const POLL_MS = 25;

/**
 * @typedef {object} LockOptions
 * @property {number} [deadline] Ms since epoch to keep trying until; absent: one attempt.
 * @property {number} [staleMs] A lock not modified for this long is taken over even if its holder lives.
 * @property {(holder: number) => void} [onWait] Called once, with the holder's pid, when the lock is busy.
 */

/** @param {number} pid */
function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === "EPERM"; // exists, someone else's
  }
}

/** @param {unknown} error */
function code(error) {
  return /** @type {NodeJS.ErrnoException} */ (error)?.code;
}

/**
 * The lock file as it is now, or null when there is none.
 * @param {string} file
 * @returns {{ ino: number, mtimeMs: number, pid: number } | null}
 */
function inspect(file) {
  try {
    const { ino, mtimeMs } = statSync(file);
    const text = readFileSync(file, "utf8").trim();
    return { ino, mtimeMs, pid: /^\d+$/.test(text) ? Number(text) : NaN };
  } catch (error) {
    if (code(error) === "ENOENT") return null;
    throw error;
  }
}

/**
 * The pid of the live process holding `file`, or null when it is free or abandoned.
 * @param {string} file
 * @param {number} [staleMs]
 */
export function lockHolder(file, staleMs) {
  const seen = inspect(file);
  return seen && !abandoned(seen, staleMs) ? seen.pid : null;
}

/**
 * @param {{ mtimeMs: number, pid: number }} seen
 * @param {number | undefined} staleMs
 */
function abandoned(seen, staleMs) {
  if (!Number.isInteger(seen.pid) || seen.pid <= 0 || !isAlive(seen.pid)) return true;
  return staleMs !== undefined && Date.now() - seen.mtimeMs > staleMs;
}

/** @param {string} file */
function uniqueName(file) {
  return `${file}.${process.pid}.${Math.random().toString(36).slice(2, 10)}`;
}

/**
 * Deletes the lock file if it is still the one judged abandoned; puts back one that replaced it.
 * @param {string} file
 * @param {number} ino
 */
function removeAbandoned(file, ino) {
  const aside = `${uniqueName(file)}.stale`;
  try {
    renameSync(file, aside);
  } catch (error) {
    if (code(error) === "ENOENT") return;
    throw error;
  }
  try {
    if (statSync(aside).ino !== ino) linkSync(aside, file);
  } catch (error) {
    if (code(error) !== "EEXIST") throw error;
  } finally {
    unlinkSync(aside);
  }
}

/**
 * One attempt: the lock, or the live holder's pid.
 * @param {string} file
 * @param {number | undefined} staleMs
 * @returns {Lock | number}
 */
function attempt(file, staleMs) {
  const temporary = `${uniqueName(file)}.tmp`;
  writeFileSync(temporary, String(process.pid), { mode: 0o600 });
  try {
    for (;;) {
      try {
        linkSync(temporary, file);
        return new Lock(file, statSync(temporary).ino);
      } catch (error) {
        if (code(error) !== "EEXIST") throw error;
      }
      const seen = inspect(file);
      if (!seen) continue;
      if (!abandoned(seen, staleMs)) return seen.pid;
      removeAbandoned(file, seen.ino);
    }
  } finally {
    unlinkSync(temporary);
  }
}

/**
 * The attempts at `file` until `options.deadline`: yields how long to wait before the
 * next one, and returns the lock, or undefined when it stayed taken. The waiting is the
 * caller's (asynchronous or not); the holder is announced once, at the first wait.
 * @param {string} file
 * @param {LockOptions} options
 * @returns {Generator<number, Lock | undefined, void>}
 */
function* attempts(file, options) {
  let announced = false;
  for (;;) {
    const result = attempt(file, options.staleMs);
    if (typeof result !== "number") return result;
    const left = (options.deadline ?? 0) - Date.now();
    if (left <= 0) return undefined;
    if (!announced) options.onWait?.(result);
    announced = true;
    yield Math.min(POLL_MS, left);
  }
}

/**
 * Takes the lock `file`, trying until `options.deadline`; undefined when it stayed taken.
 * @param {string} file
 * @param {LockOptions} [options]
 * @returns {Promise<Lock | undefined>}
 */
export async function acquireLock(file, options = {}) {
  const tries = attempts(file, options);
  for (let next = tries.next(); ; next = tries.next()) {
    if (next.done) return next.value;
    await sleep(next.value);
  }
}

/**
 * acquireLock for code that cannot wait asynchronously (opening a database inside a
 * synchronous factory): the thread sleeps between attempts.
 * @param {string} file
 * @param {LockOptions} [options]
 * @returns {Lock | undefined}
 */
export function acquireLockSync(file, options = {}) {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const tries = attempts(file, options);
  for (let next = tries.next(); ; next = tries.next()) {
    if (next.done) return next.value;
    Atomics.wait(pause, 0, 0, next.value);
  }
}

/**
 * The lock file of a data directory one process at a time may open (PGlite's): `<dir>.lock`,
 * the same for the CLI, the Next server, the migration runner and the schema-engine stand-in.
 * @param {string} dir
 * @returns {string}
 */
export function dataDirLockPath(dir) {
  return `${dir}.lock`;
}

/** A held lock; released by release() or when the process exits. */
export class Lock {
  #held = true;
  #onExit = () => this.release();

  /**
   * @param {string} file
   * @param {number} ino the inode of the file this holder created
   */
  constructor(file, ino) {
    /** @readonly */
    this.file = file;
    /** @readonly */
    this.ino = ino;
    process.on("exit", this.#onExit);
  }

  /** True while the lock file is the one this holder created. */
  #mine() {
    try {
      return this.#held && statSync(this.file).ino === this.ino;
    } catch {
      return false;
    }
  }

  /** Marks the lock as in use, for holders that run longer than a taker's stale limit. */
  touch() {
    const now = new Date();
    if (this.#mine()) utimesSync(this.file, now, now);
  }

  /** Lets the lock go; a lock another process took over (as stale) is left to it. */
  release() {
    if (!this.#held) return;
    const mine = this.#mine();
    this.#held = false;
    process.off("exit", this.#onExit);
    if (!mine) return;
    try {
      unlinkSync(this.file);
    } catch {
      // already gone
    }
  }
}
