import { existsSync, readFileSync } from "node:fs";
import { readState } from "./state";

/** The last lines of the server's log, for a run whose server died before the end. */
function logTail(logFile: string, lines = 80): string {
  if (!existsSync(logFile)) return `(no log at ${logFile})`;
  return readFileSync(logFile, "utf8").split("\n").slice(-lines).join("\n");
}

/** Stops the server the run started (its whole process group: charter serve and next start). */
export default async function globalTeardown(): Promise<void> {
  const { pid, logFile } = readState();
  if (!pid) return;
  try {
    process.kill(-pid, "SIGTERM");
  } catch {
    // The server died during the run: what it said last is the only clue CI keeps.
    console.error(
      `\ne2e: the server (pid ${pid}) had died before the end; its log ends:\n${logTail(logFile)}`,
    );
    return;
  }
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    try {
      process.kill(-pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // gone
  }
}
