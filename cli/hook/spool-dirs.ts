import { lstatSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * The spool's second location, used when the configured one cannot be written (not a
 * directory, read-only, disk full): `<os.tmpdir()>/charter-spool-<uid>`, one per user.
 */
export function fallbackSpoolDir(tmp: string = os.tmpdir()): string {
  const uid = process.getuid?.();
  return path.join(tmp, `charter-spool-${uid ?? os.userInfo().username}`);
}

/**
 * Creates `dir` (mode 0700) when missing and checks it is this user's own directory that
 * nobody else can write to: the temporary directory is shared, and another user could have
 * made the path first (a directory of theirs, or a link to one) to read or plant events.
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  if (!stat.isDirectory()) throw new Error(`${dir} is not a directory`);
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid)
    throw new Error(`${dir} belongs to another user (uid ${stat.uid})`);
  if (stat.mode & 0o022) throw new Error(`${dir} can be written by other users`);
}
