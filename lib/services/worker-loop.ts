import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import { log } from "@/lib/log";

/** The longest a failing worker waits between tries (its poll interval doubles up to this). */
export const WORKER_MAX_BACKOFF_MS = 30_000;

export type WorkerLoop = {
  /** Runs a pass now (no-op while one runs or while backing off after a failure). */
  wake(): void;
  /** Stops polling; a pass under way finishes on its own. */
  stop(): void;
  /** Resolves when no pass is running. */
  idle(): Promise<void>;
  /** Passes run so far, failures in a row now, and the wait before the next pass. */
  stats(): { passes: number; failures: number; nextDelayMs: number };
};

type Options = { name: string; intervalMs: number; maxBackoffMs?: number };

function describe(error: unknown): string {
  return error instanceof Error ? error.message.split("\n")[0]! : String(error);
}

/**
 * A background worker's poll loop: `pass` runs every `intervalMs`, one at a time. When a
 * pass fails the loop backs off (the interval doubles per failure, up to maxBackoffMs)
 * and logs once per run of failures, not once per try: an unreachable database is one
 * warning line (no stack: it is not a bug), anything else one error with its stack;
 * the first pass that succeeds again says the worker recovered and after how long.
 */
export function startWorkerLoop(pass: () => Promise<void>, options: Options): WorkerLoop {
  const maxBackoffMs = options.maxBackoffMs ?? WORKER_MAX_BACKOFF_MS;
  let failures = 0;
  let passes = 0;
  let nextDelayMs = options.intervalMs;
  let failingSince = 0;
  let running: Promise<void> | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const schedule = (ms: number) => {
    clearTimeout(timer);
    nextDelayMs = ms;
    if (stopped) return;
    timer = setTimeout(() => void run(), ms);
    timer.unref();
  };

  const run = async (): Promise<void> => {
    if (running || stopped) return;
    running = (async () => {
      try {
        await pass();
        if (failures > 0)
          log.info(
            `${options.name}: working again after ${failures} failed attempt(s) over ${Math.round((Date.now() - failingSince) / 1000)} s`,
          );
        failures = 0;
      } catch (error) {
        if (failures === 0) {
          failingSince = Date.now();
          if (isDatabaseUnavailable(error))
            log.warn(
              `${options.name}: the database is unavailable (${describe(error)}); retrying with backoff up to ${maxBackoffMs / 1000} s, and saying so once it works again`,
            );
          else
            log.error(
              `${options.name} failed; retrying with backoff up to ${maxBackoffMs / 1000} s, and saying so once it works again`,
              error,
            );
        }
        failures += 1;
      }
    })();
    await running;
    running = null;
    passes += 1;
    schedule(
      failures === 0
        ? options.intervalMs
        : Math.min(maxBackoffMs, options.intervalMs * 2 ** Math.min(failures, 20)),
    );
  };

  schedule(options.intervalMs);
  return {
    wake: () => {
      if (failures === 0) void run();
    },
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
    idle: async () => {
      await running;
    },
    stats: () => ({ passes, failures, nextDelayMs }),
  };
}
