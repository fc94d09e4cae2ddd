/**
 * One API key, many requests at once: GET /api/health?auth=1 (the key check alone) and
 * POST /api/v1/events (a UserPromptSubmit each, the hook's path), COUNT requests each
 * at CONCURRENCY (defaults 2,000 at 200), against one long-running `charter serve`.
 * Prints p50/p99 and the count of every status: a good key must never get 401. Then, in
 * this process on the server's database, the key check alone: the api-key plugin's
 * verifyApiKey with the owner read after it (the check before the key cache) against
 * resolveCaller, COUNT checks each at CONCURRENCY, and their ratio. The server's
 * warnings are shown (a 503 says why there).
 * Run: npx tsx bench/key-check.ts   (PostgreSQL on 127.0.0.1:5432, a production build;
 * CHARTER_NEXT_DIST_DIR picks the build, PORT the port)
 */
import { performance } from "node:perf_hooks";
import { auth } from "@/lib/auth/auth";
import { resolveCaller } from "@/lib/auth/caller";
import { closeDb, db, switchDatabase } from "@/lib/db/client";
import { resetEnv } from "@/lib/env";
import { hammer, quantile, summary } from "./support/hammer";
import { startBenchServer } from "./support/server";
import { loadAverage as load } from "./support/stats";

const PORT = Number(process.env.PORT ?? 3297);
const COUNT = Number(process.env.COUNT ?? 2_000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 200);
const ROUNDS = Number(process.env.ROUNDS ?? 1);

const run = Date.now().toString(36);

async function main() {
  const server = await startBenchServer({ port: PORT, stderr: "inherit" });
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
    await keyCheckRatio(server.databaseUrl, server.key);
  } finally {
    await closeDb();
    await server.stop();
  }
}

/** Runs `check` COUNT times, CONCURRENCY at a time; returns the wall time and each check's time, sorted. */
async function timed(
  check: () => Promise<boolean>,
): Promise<{ wallMs: number; ms: number[]; failed: number }> {
  const ms: number[] = [];
  let failed = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < COUNT; i = next++) {
        const t = performance.now();
        if (!(await check().catch(() => false))) failed++;
        ms.push(performance.now() - t);
      }
    }),
  );
  ms.sort((a, b) => a - b);
  return { wallMs: performance.now() - started, ms, failed };
}

async function keyCheckRatio(databaseUrl: string, key: string): Promise<void> {
  process.env.BETTER_AUTH_SECRET ??= "key-check-bench-secret-0123456789abcdef";
  resetEnv();
  await switchDatabase({ kind: "postgres", url: databaseUrl });
  const headers = new Headers({ "x-api-key": key });
  const plugin = await timed(async () => {
    const result = await auth().api.verifyApiKey({ body: { key } });
    if (!result.valid || !result.key) return false;
    const owner = await db().user.findUnique({
      where: { id: result.key.referenceId },
      select: { role: true, banned: true },
    });
    return owner !== null && owner.banned !== true;
  });
  const cached = await timed(async () => (await resolveCaller(headers)) !== null);
  const line = (label: string, r: Awaited<ReturnType<typeof timed>>) =>
    `${label}: ${COUNT} checks in ${r.wallMs.toFixed(0)} ms, ${r.failed} not verified; p50 ${quantile(r.ms, 0.5).toFixed(1)} ms, p99 ${quantile(r.ms, 0.99).toFixed(1)} ms`;
  console.log(line("key check, plugin verifyApiKey + owner read", plugin) + `  (load ${load()})`);
  console.log(line("key check, resolveCaller with the key cache", cached) + `  (load ${load()})`);
  console.log(`ratio (cached / plugin wall time): ${(cached.wallMs / plugin.wallMs).toFixed(4)}`);
}

await main();
