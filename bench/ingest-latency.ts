/**
 * Single events under concurrency, through `POST /api/v1/events` on PostgreSQL (lexical
 * retrieval), against a floor measured in the same run: the same requests with a body the
 * route refuses (422: the HTTP stack and the key check, no ingestion).
 *  (A) AGENTS (100) agents, each sending UserPromptSubmit events one after another with a
 *      pause of up to AGENT_PAUSE_MS (1000): the ingestion route's own time (its
 *      Server-Timing, from the body to the commit) and the answer time, p50 and p99.
 *  (B) 2,000 single UserPromptSubmit events at concurrency 200 with one key: the share
 *      answered within 700 ms (the hook's window), p50, p99, and any answer other than 200.
 *  (C) single events from 20 agents while batches of 999 prompts are ingested, against
 *      the same agents alone: how much a large batch stalls a hook call.
 * Every figure is printed with the load average beside it.
 * Run: CHARTER_NEXT_DIST_DIR=.next-<you> npx tsx bench/ingest-latency.ts   (a production build,
 * PostgreSQL on 127.0.0.1:5432). Knobs: BENCH_PORT (3297), AGENTS (100), SINGLES (2000),
 * CONCURRENCY (200), AGENT_PAUSE_MS (1000).
 */
import http from "node:http";
import { performance } from "node:perf_hooks";
import { startBenchServer } from "./support/server";
import { loadAverage as load } from "./support/stats";

const PORT = Number(process.env.BENCH_PORT ?? 3297);
const AGENTS = Number(process.env.AGENTS ?? 100);
const PER_AGENT = 20;
const SINGLES = Number(process.env.SINGLES ?? 2_000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 200);
const WINDOW_MS = 700;
const BATCH = 999;
/** An agent's pause between events: up to this, at random (an agent's hooks fire seconds apart; this is brisker). */
const AGENT_PAUSE_MS = Number(process.env.AGENT_PAUSE_MS ?? 1_000);

const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))] ?? NaN;
const ms = (x: number) => `${x.toFixed(1)} ms`;
const pause = (max: number) => new Promise((r) => setTimeout(r, Math.random() * max));

const agent = new http.Agent({ keepAlive: true, maxSockets: 1_000 });

/** One POST; resolves with the status (0: no answer, the connection failed) and the time to the whole answer. */
function post(
  url: string,
  key: string,
  body: unknown,
): Promise<{ status: number; ms: number; server: number; phases: Phases; text: string }> {
  const data = Buffer.from(JSON.stringify(body));
  const started = performance.now();
  return new Promise((resolve) => {
    const failed = (error: Error) =>
      resolve({
        status: 0,
        ms: performance.now() - started,
        server: NaN,
        phases: {},
        text: error.message,
      });
    const req = http.request(
      `${url}/api/v1/events`,
      {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          "content-length": data.length,
          "x-api-key": key,
          "x-charter-client": "hook",
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: performance.now() - started,
            server: Number(/ingest;dur=([\d.]+)/.exec(String(res.headers["server-timing"]))?.[1]),
            phases: phasesOf(String(res.headers["server-timing"] ?? "")),
            text: Buffer.concat(chunks).toString(),
          }),
        );
        res.on("error", failed);
      },
    );
    req.on("error", failed);
    req.end(data);
  });
}

/** The route's Server-Timing phases (retrieve, queue, commit), in milliseconds. */
type Phases = Record<string, number>;
const phasesOf = (header: string): Phases =>
  Object.fromEntries(
    [...header.matchAll(/(\w+);dur=([\d.]+)/g)]
      .filter(([, name]) => name !== "ingest")
      .map(([, name, dur]) => [name, Number(dur)]),
  );

let seq = 0;
const prompt = (session: string, valid = true) =>
  valid
    ? {
        type: "UserPromptSubmit",
        id: `lat-${process.pid}-${seq++}`,
        session_id: session,
        prompt: `add input validation to the signup form and a test for it (${seq})`,
      }
    : { type: "UserPromptSubmit", id: `lat-bad-${seq++}`, session_id: session };

/** AGENTS agents each sending `count` single events in turn; every answer's time and status. */
async function agents(
  url: string,
  key: string,
  n: number,
  count: number,
  valid: boolean,
  tag: string,
  pauseMs = AGENT_PAUSE_MS,
) {
  const times: number[] = [];
  const server: number[] = [];
  const phases = new Map<string, number[]>();
  const statuses = new Map<number, number>();
  let withContext = 0;
  await Promise.all(
    Array.from({ length: n }, async (_, a) => {
      await pause(200);
      for (let i = 0; i < count; i++) {
        const r = await post(url, key, prompt(`${tag}-${a}`, valid));
        times.push(r.ms);
        if (Number.isFinite(r.server)) server.push(r.server);
        for (const [name, dur] of Object.entries(r.phases))
          phases.set(name, [...(phases.get(name) ?? []), dur]);
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        if (r.status === 200 && r.text.includes("Charter constitution")) withContext++;
        await pause(pauseMs);
      }
    }),
  );
  return { times, server, phases, statuses, withContext };
}

const show = (statuses: Map<number, number>) => JSON.stringify(Object.fromEntries(statuses));

async function main() {
  const server = await startBenchServer({ port: PORT });
  try {
    const { url, key } = server;
    // Warm-up (JIT, connections), not counted.
    await agents(url, key, 20, 5, true, "warm");
    await agents(url, key, 20, 5, false, "warm-bad");

    // (A)
    const floor = await agents(url, key, AGENTS, PER_AGENT, false, "floor");
    const floorLoad = load();
    const single = await agents(url, key, AGENTS, PER_AGENT, true, "a");
    console.log(
      `(A) ${AGENTS} agents, single UserPromptSubmit: ingest server time (Server-Timing) p50 ${ms(quantile(single.server, 0.5))}, p99 ${ms(quantile(single.server, 0.99))}; ` +
        `answer p50 ${ms(quantile(single.times, 0.5))}, p99 ${ms(quantile(single.times, 0.99))} ` +
        `(answers ${show(single.statuses)}, with context ${single.withContext}) [load ${load()}]; ` +
        `floor (422, no ingestion): p50 ${ms(quantile(floor.times, 0.5))}, p99 ${ms(quantile(floor.times, 0.99))} [load ${floorLoad}]; ` +
        `ratio p50 ${(quantile(single.times, 0.5) / quantile(floor.times, 0.5)).toFixed(2)}, p99 ${(quantile(single.times, 0.99) / quantile(floor.times, 0.99)).toFixed(2)}`,
    );
    console.log(
      `    where the server time went: ${[...single.phases]
        .map(([name, d]) => `${name} p50 ${ms(quantile(d, 0.5))}, p99 ${ms(quantile(d, 0.99))}`)
        .join("; ")}`,
    );

    // (B)
    const times: number[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = next++; i < SINGLES; i = next++) {
          const r = await post(url, key, prompt(`b-${i}`));
          times.push(r.ms);
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const within = times.filter((t) => t <= WINDOW_MS).length;
    console.log(
      `(B) ${SINGLES} single events at concurrency ${CONCURRENCY}: ${((100 * within) / SINGLES).toFixed(1)}% answered within ${WINDOW_MS} ms; ` +
        `p50 ${ms(quantile(times, 0.5))}, p99 ${ms(quantile(times, 0.99))}; ${Math.round(SINGLES / seconds)} events/s; answers ${show(statuses)} [load ${load()}]`,
    );

    // (C)
    const alone = await agents(url, key, 20, 10, true, "c-alone", 100);
    const aloneLoad = load();
    let batches = 0;
    let stop = false;
    const batcher = (async () => {
      for (let b = 0; !stop; b++) {
        const events = Array.from({ length: BATCH }, (_, i) => ({
          ...prompt(`c-batch-${b}-${i % 50}`),
          context_delivered: false,
        }));
        const r = await post(url, key, { events });
        if (r.status !== 200) throw new Error(`batch: ${r.status} ${r.text.slice(0, 200)}`);
        batches++;
      }
    })();
    const during = await agents(url, key, 20, 10, true, "c-during", 100);
    stop = true;
    await batcher;
    console.log(
      `(C) single events beside batches of ${BATCH} prompts (${batches} batches meanwhile): p50 ${ms(quantile(during.times, 0.5))}, p99 ${ms(quantile(during.times, 0.99))}, server time p99 ${ms(quantile(during.server, 0.99))} [load ${load()}]; ` +
        `alone: p50 ${ms(quantile(alone.times, 0.5))}, p99 ${ms(quantile(alone.times, 0.99))} [load ${aloneLoad}]; ` +
        `ratio p99 ${(quantile(during.times, 0.99) / quantile(alone.times, 0.99)).toFixed(2)}`,
    );
  } finally {
    agent.destroy();
    await server.stop();
  }
}

await main();
