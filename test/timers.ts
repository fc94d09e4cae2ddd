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
