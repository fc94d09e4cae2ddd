import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { switchDatabase } from "@/lib/db/client";
import type { DatabaseTarget } from "@/lib/env";
import { setupTestDatabase } from "@/test/db";
import { startRecomputeWorker, stopRecomputeWorker } from "./recompute";

let teardown: () => Promise<void>;
let target: DatabaseTarget;

beforeAll(async () => {
  ({ teardown, target } = await setupTestDatabase());
});
afterAll(async () => {
  stopRecomputeWorker();
  await teardown();
});

/** Waits (bounded, generously) until `check` holds; polls, never sleeps as synchronisation. */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Collects what the process writes to the console while `work` runs. */
async function captureLog(work: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const saved = { error: console.error, warn: console.warn };
  console.error = (...args: unknown[]) => void lines.push(args.join(" "));
  console.warn = (...args: unknown[]) => void lines.push(args.join(" "));
  try {
    await work();
  } finally {
    Object.assign(console, saved);
  }
  return lines;
}

describe("the recompute worker while the database is down", () => {
  it("backs off to its cap and logs once per outage, then once when the database is back", async () => {
    const intervalMs = 5;
    const maxBackoffMs = 40;
    let worker: ReturnType<typeof startRecomputeWorker> | undefined;
    const down = await captureLog(async () => {
      // Nothing listens on port 1: every pass fails to reach the database.
      await switchDatabase({ kind: "postgres", url: "postgresql://postgres@127.0.0.1:1/none" });
      worker = startRecomputeWorker({ intervalMs, maxBackoffMs });
      await until(() => worker!.stats().passes >= 8, "eight failed passes");
    });
    expect(worker!.stats().failures).toBeGreaterThanOrEqual(8);
    // The wait doubled per failure and stopped at the cap.
    expect(worker!.stats().nextDelayMs).toBe(maxBackoffMs);
    expect(down).toHaveLength(1);
    expect(down[0]).toMatch(/recompute worker: the database is unavailable/);
    expect(down[0]).not.toMatch(/\n\s+at /);

    const back = await captureLog(async () => {
      await switchDatabase(target);
      await until(() => worker!.stats().failures === 0, "a pass that succeeds");
    });
    expect(back).toHaveLength(1);
    expect(back[0]).toMatch(/recompute worker: working again after \d+ failed attempt/);
    expect(worker!.stats().nextDelayMs).toBe(intervalMs);
  });
});
