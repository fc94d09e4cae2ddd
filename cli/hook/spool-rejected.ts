import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { exists } from "./spool-files";

/**
 * Where events the server refused (400/409/413/422) and entries that are not events are
 * kept for a person: `<name>.json` as it was, and `<name>.reason.txt` saying why.
 */
export const REJECTED_DIR = "rejected";
export const REASON_SUFFIX = ".reason.txt";

/** A free path in `spoolDir`'s rejected/ for `name`: an event refused twice keeps both copies. */
export function rejectedPath(spoolDir: string, name: string): string {
  const dir = path.join(spoolDir, REJECTED_DIR);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stem = name.replace(/\.json$/, "");
  for (let n = 0; ; n++) {
    const candidate = path.join(dir, `${stem}${n ? `~${n}` : ""}.json`);
    if (!exists(candidate)) return candidate;
  }
}

/** Writes `<target>.reason.txt` beside a kept file: the reason, when, and the server's answer. */
export function writeReason(target: string, reason: string, answer: unknown): void {
  const shown =
    answer === undefined
      ? ""
      : `server answer:\n${typeof answer === "string" ? answer : JSON.stringify(answer, null, 2)}\n`;
  writeFileSync(
    target.replace(/\.json$/, REASON_SUFFIX),
    `${reason}\nrejected at ${new Date().toISOString()}\n${shown}`,
    { mode: 0o600 },
  );
}

/** Writes `content` to `spoolDir`'s rejected/ as `name`, beside its reason; returns its path. */
export function keepAside(
  spoolDir: string,
  name: string,
  content: string,
  reason: string,
  answer?: unknown,
): string {
  const target = rejectedPath(spoolDir, name);
  writeFileSync(target, content, { mode: 0o600 });
  writeReason(target, reason, answer);
  return target;
}
