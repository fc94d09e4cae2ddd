import { mkdirSync, openSync, closeSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/** `<ms since epoch, 15 digits>-<sequence, 6 digits>-<event id>.json`: lexical order is arrival order. */
const SPOOLED = /^(\d{15})-(\d{6})-[\w-]+\.json$/;
const LOCK = ".lock";
/** A lock untouched for this long was left by a process that died. */
const STALE_LOCK_MS = 10_000;
/** Where spooled events the server refused (400/413/422) are kept for a person to inspect. */
export const REJECTED_DIR = "rejected";

export type Spooled = { name: string; file: string; bytes: number };

function errno(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

/**
 * Events that could not be delivered, one file per event, written atomically (temporary
 * file, then rename) so a reader never sees half an event. A file is deleted only after
 * the server acknowledged it; the server ignores ids it has seen, so sending one twice
 * after an unclear failure is safe.
 */
export class Spool {
  constructor(readonly dir: string) {}

  /** The waiting events, oldest first. */
  list(): Spooled[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch (error) {
      if (errno(error) === "ENOENT") return [];
      throw error;
    }
    return names
      .filter((name) => SPOOLED.test(name))
      .sort()
      .map((name) => {
        const file = path.join(this.dir, name);
        let bytes = 0;
        try {
          bytes = statSync(file).size;
        } catch {
          // removed by a concurrent replay; reading it will say so
        }
        return { name, file, bytes };
      });
  }

  /** Adds an event after every waiting one; returns its file name. */
  add(event: { id: string }, now: number = Date.now()): string {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const last = this.list().at(-1);
    const match = last ? SPOOLED.exec(last.name) : null;
    const lastAt = match ? Number(match[1]) : 0;
    // Never sort before an event already waiting, even if the clock went back.
    const at = Math.max(now, lastAt);
    const sequence = match && at === lastAt ? Number(match[2]) + 1 : 0;
    const name = `${String(at).padStart(15, "0")}-${String(sequence).padStart(6, "0")}-${event.id.replace(/[^\w-]/g, "_")}.json`;
    const temporary = path.join(this.dir, `.${name}.${process.pid}.tmp`);
    writeFileSync(temporary, JSON.stringify(event), { mode: 0o600 });
    renameSync(temporary, path.join(this.dir, name));
    return name;
  }

  /** The event in a spooled file; undefined when another process already delivered it. */
  read(entry: Spooled): unknown {
    let text: string;
    try {
      text = readFileSync(entry.file, "utf8");
    } catch (error) {
      if (errno(error) === "ENOENT") return undefined;
      throw error;
    }
    try {
      return JSON.parse(text);
    } catch {
      this.reject(entry);
      return undefined;
    }
  }

  remove(entry: Spooled): void {
    try {
      unlinkSync(entry.file);
    } catch (error) {
      if (errno(error) !== "ENOENT") throw error;
    }
  }

  /** Moves an event the server will never take out of the queue, keeping it for inspection. */
  reject(entry: Spooled): string {
    const dir = path.join(this.dir, REJECTED_DIR);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const target = path.join(dir, entry.name);
    try {
      renameSync(entry.file, target);
    } catch (error) {
      if (errno(error) !== "ENOENT") throw error;
    }
    return target;
  }

  /**
   * Takes the replay lock, waiting until `until` (ms since epoch) for another replay to
   * finish, so that two hooks do not send the same queue at once. Returns a release
   * function, or undefined when the lock stayed taken.
   */
  async lock(until: number): Promise<SpoolLock | undefined> {
    const file = path.join(this.dir, LOCK);
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
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
}

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
