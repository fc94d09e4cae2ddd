import { readSync } from "node:fs";

/** What stdin held: `complete` once it was closed (end of file), false when the wait ran out first. */
export type StdinRead = { text: string; complete: boolean };

/**
 * Whatever the pipe holds now, without waiting; true when it reached the end of file.
 * libuv put stdin in non-blocking mode, so a read of an empty pipe fails (EAGAIN) at once
 * instead of blocking.
 */
function drainNow(chunks: Buffer[]): boolean {
  const buffer = Buffer.alloc(64 * 1024);
  for (;;) {
    let read: number;
    try {
      read = readSync(0, buffer, 0, buffer.length, null);
    } catch {
      return false; // EAGAIN (nothing more yet), or stdin is gone
    }
    if (read <= 0) return true; // end of file: the writer closed it after all
    chunks.push(Buffer.from(buffer.subarray(0, read)));
  }
}

/**
 * All of stdin as text, waiting until it closes or until `waitMs` has passed, whichever
 * is first; "" (complete) when stdin is a terminal (nothing was piped in). When the wait
 * runs out, what stdin holds is taken as it is, and `complete` is false.
 */
export function readStdin(waitMs: number = Infinity): Promise<StdinRead> {
  const stdin = process.stdin;
  if (stdin.isTTY) return Promise.resolve({ text: "", complete: true });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const finish = (ended: boolean) => {
      clearTimeout(timer);
      stdin.removeAllListeners("data").removeAllListeners("end").removeAllListeners("error");
      let complete = ended;
      if (!ended) {
        stdin.pause();
        complete = drainNow(chunks);
        // Nothing more is read: a writer that never closes must not keep the process alive.
        stdin.destroy();
      }
      resolve({ text: Buffer.concat(chunks).toString("utf8"), complete });
    };
    stdin.on("data", (chunk: Buffer) => chunks.push(chunk));
    stdin.on("end", () => finish(true));
    // A stdin that fails to read holds what was read so far, and no more.
    stdin.on("error", () => finish(false));
    if (Number.isFinite(waitMs)) timer = setTimeout(() => finish(false), Math.max(0, waitMs));
  });
}
