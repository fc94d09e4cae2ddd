import { spawnSync } from "node:child_process";

/** Delays that a test server can cancel all at once when it closes, so no test waits on a dead timer. */
export function cancellableTimers(): {
  wait: (ms: number) => Promise<void>;
  cancelAll: () => void;
} {
  const timers = new Set<NodeJS.Timeout>();
  return {
    wait: (ms) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, ms);
        timers.add(timer);
      }),
    cancelAll: () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

/**
 * How long this machine takes, right now, to start Node and exit (the slowest of three
 * runs). A wall-time bound on a spawned process adds a multiple of it, so that the bound
 * holds the code to its budget without failing when the machine is busy.
 */
export function nodeStartMs(): number {
  let slowest = 0;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    spawnSync(process.execPath, ["-e", ""], { stdio: "ignore" });
    slowest = Math.max(slowest, performance.now() - started);
  }
  return slowest;
}
