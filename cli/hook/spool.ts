import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { errno, errorMessage } from "./io";
import { ensurePrivateDir } from "./spool-dirs";
import { describeKind, exists, leadingObjectLength } from "./spool-files";
import { keepAside, rejectedPath, writeReason } from "./spool-rejected";
import { takeLock, type SpoolLock } from "./spool-lock";

/** `<ms since epoch, 15 digits>-<sequence, 6 digits>-<event id>.json`: lexical order is arrival order. */
const SPOOLED = /^(\d{15})-(\d{6})-[\w-]+\.json$/;
const LOCK = ".lock";
/** The settings problem (refused key, wrong URL) last said on stderr; removed when an event is delivered. */
const PROBLEM = ".problem";
/** An entry larger than this is not one of the hook's events (they are clipped far below it). */
export const MAX_ENTRY_BYTES = 32 * 1024 * 1024;
export { REASON_SUFFIX, REJECTED_DIR } from "./spool-rejected";

export type Spooled = { name: string; file: string; bytes: number };

/** What a spool entry holds. `salvaged`: the entry had garbage after its event; the file as it was is kept at this path. */
export type SpoolRead =
  | { kind: "event"; event: object; salvaged?: string }
  | { kind: "gone" }
  | { kind: "bad"; problem: string };

/**
 * Nothing reads the server's answer to a spooled event, so a spooled UserPromptSubmit
 * never put its principles in the agent's context: it says so, and the server records
 * the turn with nothing injected.
 */
export function unanswered<E extends { type?: unknown }>(event: E): E {
  return event.type === "UserPromptSubmit" ? { ...event, context_delivered: false } : event;
}

/**
 * Events that could not be delivered, one file per event, written atomically (temporary
 * file, then rename) so a reader never sees half an event. A file leaves the spool only
 * when the server acknowledged it, or to rejected/ with its reason; the server ignores
 * ids it has seen, so sending one twice after an unclear failure is safe. Other files in
 * the directory are not the spool's and are left alone.
 *
 * When `dir` cannot be written, events go to `fallbackDir` (spool-dirs.ts) instead, and
 * `fellBack` says why; the queue is both directories together, oldest first.
 */
export class Spool {
  /** Why the last write went to the fallback directory; undefined when it went to `dir`. */
  fellBack: string | undefined;

  constructor(
    readonly dir: string,
    readonly fallbackDir?: string,
  ) {}

  private dirs(): string[] {
    return this.fallbackDir && this.fallbackDir !== this.dir
      ? [this.dir, this.fallbackDir]
      : [this.dir];
  }

  /** Entry names with their directories, oldest first across both directories. */
  private names(): { name: string; dir: string }[] {
    const found: { name: string; dir: string }[] = [];
    for (const dir of this.dirs()) {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch (error) {
        // Not there, or a file in the way (which is why the fallback is used): nothing to send from it.
        if (errno(error) === "ENOENT" || errno(error) === "ENOTDIR") continue;
        throw error;
      }
      for (const name of names) if (SPOOLED.test(name)) found.push({ name, dir });
    }
    return found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /**
   * Runs `write` on `dir`, and on the fallback directory when that fails; what went to the
   * fallback is said by `fellBack`. Throws when neither can be written, naming both.
   */
  private writeSomewhere<T>(write: (dir: string) => T): T {
    this.fellBack = undefined;
    try {
      return write(this.dir);
    } catch (error) {
      const fallback = this.dirs()[1];
      if (!fallback) throw error;
      const first = `cannot write to ${this.dir} (${errorMessage(error)})`;
      try {
        ensurePrivateDir(fallback);
        const result = write(fallback);
        this.fellBack = first;
        return result;
      } catch (second) {
        throw new Error(`${first}, nor to ${fallback} (${errorMessage(second)})`);
      }
    }
  }

  /** The waiting entries, oldest first. */
  list(): Spooled[] {
    return this.names().map(({ name, dir }) => {
      const file = path.join(dir, name);
      let bytes = 0;
      try {
        bytes = statSync(file).size;
      } catch {
        // gone (a concurrent replay) or unreadable: reading it will say which
      }
      return { name, file, bytes };
    });
  }

  /** Adds an event after every waiting one; returns its file name. */
  add<E extends { id: string; type?: unknown }>(event: E, now: number = Date.now()): string {
    const name = this.nextName(event.id, now);
    const content = JSON.stringify(unanswered(event));
    return this.writeSomewhere((dir) => {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const temporary = path.join(dir, `.${name}.${process.pid}.tmp`);
      try {
        writeFileSync(temporary, content, { mode: 0o600 });
        renameSync(temporary, path.join(dir, name));
      } catch (error) {
        // A disk that filled up mid-write leaves no half event behind.
        try {
          unlinkSync(temporary);
        } catch {
          // never written
        }
        throw error;
      }
      return name;
    });
  }

  private nextName(id: string, now: number): string {
    const match = SPOOLED.exec(this.names().at(-1)?.name ?? "");
    const lastAt = match ? Number(match[1]) : 0;
    // Never sort before an event already waiting, even if the clock went back.
    const at = Math.max(now, lastAt);
    const sequence = match && at === lastAt ? Number(match[2]) + 1 : 0;
    return `${String(at).padStart(15, "0")}-${String(sequence).padStart(6, "0")}-${id.replace(/[^\w-]/g, "_")}.json`;
  }

  /**
   * The event in an entry. Never throws: an entry that is not an event file (a directory,
   * unreadable, not JSON) is "bad" with the reason; one another process already delivered
   * is "gone". A file whose event is followed by garbage keeps the event, and the whole
   * file as it was goes to rejected/ ("salvaged").
   */
  read(entry: Spooled): SpoolRead {
    let text: string;
    try {
      const stat = statSync(entry.file);
      if (!stat.isFile())
        return { kind: "bad", problem: `is ${describeKind(stat)}, not an event file` };
      if (stat.size > MAX_ENTRY_BYTES)
        return {
          kind: "bad",
          problem: `holds ${stat.size} bytes, more than an event (${MAX_ENTRY_BYTES})`,
        };
      text = readFileSync(entry.file, "utf8");
    } catch (error) {
      if (errno(error) !== "ENOENT")
        return { kind: "bad", problem: `cannot be read (${errorMessage(error)})` };
      return exists(entry.file)
        ? { kind: "bad", problem: "is a link to nothing" }
        : { kind: "gone" };
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      return (
        this.salvage(entry, text) ?? {
          kind: "bad",
          problem: text.trim() ? `is not JSON (${errorMessage(error)})` : "is empty",
        }
      );
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
      return { kind: "bad", problem: "is JSON but not an event object" };
    return { kind: "event", event: parsed };
  }

  /** An event followed by bytes that are not JSON: the original goes to rejected/, the entry keeps the event alone. */
  private salvage(entry: Spooled, text: string): SpoolRead | undefined {
    const length = leadingObjectLength(text);
    if (length < 0) return undefined;
    let event: unknown;
    try {
      event = JSON.parse(text.slice(0, length));
    } catch {
      return undefined;
    }
    if (!event || typeof event !== "object" || Array.isArray(event)) return undefined;
    try {
      const kept = keepAside(
        path.dirname(entry.file),
        entry.name,
        text,
        `the ${text.length - length} characters after the event (from character ${length}) are not JSON; the event before them stayed in the spool`,
      );
      const temporary = path.join(path.dirname(entry.file), `.${entry.name}.${process.pid}.tmp`);
      writeFileSync(temporary, text.slice(0, length), { mode: 0o600 });
      renameSync(temporary, entry.file);
      return { kind: "event", event, salvaged: kept };
    } catch (error) {
      return {
        kind: "bad",
        problem: `holds an event followed by garbage and cannot be cleaned up (${errorMessage(error)})`,
      };
    }
  }

  remove(entry: Spooled): void {
    try {
      unlinkSync(entry.file);
    } catch (error) {
      if (errno(error) !== "ENOENT") throw error;
    }
  }

  /**
   * Moves an entry the server will never take (or that is no event) out of the queue into
   * rejected/, beside a file with the reason and the server's answer; returns its new path.
   */
  reject(entry: Spooled, reason: string, answer?: unknown): string {
    const target = rejectedPath(path.dirname(entry.file), entry.name);
    try {
      renameSync(entry.file, target);
    } catch (error) {
      if (errno(error) !== "ENOENT") throw error;
    }
    writeReason(target, reason, answer);
    return target;
  }

  /** Keeps an event the server refused when it was sent live, as reject() does for spooled ones. */
  keepRejected<E extends { id: string; type?: unknown }>(
    event: E,
    reason: string,
    answer?: unknown,
  ): string {
    const name = this.nextName(event.id, Date.now());
    const content = JSON.stringify(unanswered(event));
    return this.writeSomewhere((dir) => keepAside(dir, name, content, reason, answer));
  }

  /**
   * Keeps what stdin held when it was not a hook payload (`text`, as it was) in rejected/
   * with the reason; returns its path.
   */
  keepText(text: string, reason: string, now: number = Date.now()): string {
    const name = this.nextName("stdin", now);
    return this.writeSomewhere((dir) => keepAside(dir, name, text, reason));
  }

  /**
   * Records a settings problem (a refused key, a wrong URL) that a person has to fix; true
   * when it is new, so that it is said on stderr once rather than by every hook.
   */
  noteProblem(key: string): boolean {
    const file = path.join(this.dir, PROBLEM);
    try {
      if (readFileSync(file, "utf8") === key) return false;
    } catch {
      // not recorded yet
    }
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      writeFileSync(file, key, { mode: 0o600 });
    } catch {
      // unrecorded: said again next time, which is better than never
    }
    return true;
  }

  /** An event was delivered: whatever problem was said is over. */
  clearProblem(): void {
    try {
      unlinkSync(path.join(this.dir, PROBLEM));
    } catch {
      // none recorded
    }
  }

  /**
   * Takes the replay lock, waiting until `until` (ms since epoch) for another replay to
   * finish, so that two hooks do not send the same queue at once; undefined when the
   * lock stayed taken.
   */
  async lock(until: number): Promise<SpoolLock | undefined> {
    let dir = this.dir;
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      // The lock's own temporary file tells whether the directory can be written at all.
      return await takeLock(path.join(dir, LOCK), until);
    } catch (error) {
      const fallback = this.dirs()[1];
      if (!fallback) throw error;
      dir = fallback;
    }
    ensurePrivateDir(dir);
    return takeLock(path.join(dir, LOCK), until);
  }
}
