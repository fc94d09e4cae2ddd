import { closeSync, openSync, statSync, unlinkSync, utimesSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { errno } from "./io";

/** A lock untouched for this long was left by a process that died. */
const STALE_LOCK_MS = 10_000;

/**
 * Creates `file` exclusively, retrying until `until` (ms since epoch); a lock file older
 * than STALE_LOCK_MS is taken over. Undefined when the lock stayed taken.
 */
export async function takeLock(file: string, until: number): Promise<SpoolLock | undefined> {
  for (;;) {
    try {
      closeSync(openSync(file, "wx", 0o600));
      return new SpoolLock(file);
    } catch (error) {
      if (errno(error) !== "EEXIST") throw error;
    }
    try {
      if (Date.now() - statSync(file).mtimeMs > STALE_LOCK_MS) {
        unlinkSync(file);
        continue;
      }
    } catch (error) {
      if (errno(error) === "ENOENT") continue;
      throw error;
    }
    if (Date.now() >= until) return undefined;
    await sleep(Math.min(25, Math.max(1, until - Date.now())));
  }
}

/** A held lock; released on release() or when the process exits. */
export class SpoolLock {
  private held = true;
  private readonly onExit = () => this.release();

  constructor(readonly file: string) {
    process.on("exit", this.onExit);
  }

  /** Marks the lock as in use, for holders that run longer than the stale limit. */
  touch(): void {
    const now = new Date();
    if (this.held) utimesSync(this.file, now, now);
  }

  release(): void {
    if (!this.held) return;
    this.held = false;
    process.off("exit", this.onExit);
    try {
      unlinkSync(this.file);
    } catch {
      // already gone (taken over as stale)
    }
  }
}
