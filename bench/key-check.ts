/**
 * One API key, many requests at once: GET /api/health?auth=1 (the key check alone) and
 * POST /api/v1/events (a UserPromptSubmit each, the hook's path), COUNT requests each
 * at CONCURRENCY (defaults 2,000 at 200), against one long-running `charter serve`.
 * Prints p50/p99 and the count of every status: a good key must never get 401.
 * Run: npx tsx bench/key-check.ts   (PostgreSQL on 127.0.0.1:5432, a production build;
 * CHARTER_NEXT_DIST_DIR picks the build, PORT the port)
 */
import os from "node:os";
import { hammer, summary } from "./support/hammer";
import { startBenchServer } from "./support/server";

const PORT = Number(process.env.PORT ?? 3297);
const COUNT = Number(process.env.COUNT ?? 2_000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 200);
const ROUNDS = Number(process.env.ROUNDS ?? 1);

const run = Date.now().toString(36);

const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");

async function main() {
  const server = await startBenchServer({ port: PORT });
  const headers = { "x-api-key": server.key, "content-type": "application/json" };
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const health = await hammer({
        count: COUNT,
        concurrency: CONCURRENCY,
        request: () => fetch(`${server.url}/api/health?auth=1`, { headers }),
      });
      console.log(`${summary(`round ${round} GET /api/health?auth=1`, health)}  (load ${load()})`);
      for (const sample of health.samples) console.log(`  ${sample}`);
      const events = await hammer({
        count: COUNT,
        concurrency: CONCURRENCY,
        request: (i) =>
          fetch(`${server.url}/api/v1/events`, {
            method: "POST",
            headers,
            body: JSON.stringify({
              id: `key-check-${run}-${round}-${i}`,
              session_id: `key-check-${run}-${round}-${i}`,
              cwd: "/work/app",
              type: "UserPromptSubmit",
              prompt: `agent ${i}: add input validation to the signup form and a test for it`,
            }),
          }),
      });
      console.log(`${summary(`round ${round} POST /api/v1/events`, events)}  (load ${load()})`);
      for (const sample of events.samples) console.log(`  ${sample}`);
    }
  } finally {
    await server.stop();
  }
}

await main();
