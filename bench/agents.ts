/**
 * Agents in: (1) batch ingestion through `POST /api/v1/events` on PostgreSQL, turns
 * per second with UserPromptSubmit retrieval on the lexical path, against a plain
 * multi-row INSERT of the same rows with `pg`, both measured in this run; (2) the
 * UserPromptSubmit hook's wall time against `node -e 0`, and the first prompt after
 * a cold start. It starts its own server (production build) on a fresh database.
 * Run: npx next build && npx tsx bench/agents.ts   (PostgreSQL on 127.0.0.1:5432)
 * Knobs: BENCH_TURNS (20000), BENCH_SENDERS (4), BENCH_PORT (3299). Every figure is
 * printed with the load average beside it.
 */
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import pg from "pg";
import { BIN, ROOT, startBenchServer, waitHealthy } from "./support/server";
import { loadAverage as load, median } from "./support/stats";

const PORT = Number(process.env.BENCH_PORT ?? 3299);
const TURNS = Number(process.env.BENCH_TURNS ?? 20_000);
const BATCH_EVENTS = 999;
const HOOK_RUNS = 15;
const SENDERS = Number(process.env.BENCH_SENDERS ?? 4);

/** One turn: a prompt, a tool call and a stop, in sessions of 10 turns. */
function turnEvents(run: string, i: number) {
  const session = `${run}-s-${Math.floor(i / 10)}`;
  return [
    {
      type: "UserPromptSubmit",
      id: `${run}-p-${i}`,
      session_id: session,
      prompt: `refactor the module number ${i} and add tests`,
    },
    {
      type: "PostToolUse",
      id: `${run}-t-${i}`,
      session_id: session,
      tool_name: "Bash",
      tool_input: { command: "npm test" },
      tool_response: "12 passing\nExit code: 0",
    },
    {
      type: "Stop",
      id: `${run}-st-${i}`,
      session_id: session,
      response: "I split the module and added tests; all pass.",
    },
  ];
}

async function post(url: string, key: string, events: unknown[]) {
  const res = await fetch(`${url}/api/v1/events`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify({ events }),
  });
  if (!res.ok) throw new Error(`ingest failed: ${res.status} ${await res.text()}`);
}

async function main() {
  const server = await startBenchServer({ port: PORT });
  try {
    // Warm-up (JIT, pool), not counted.
    const warm = Array.from({ length: 300 }, (_, i) => turnEvents("warm", i)).flat();
    for (let i = 0; i < warm.length; i += BATCH_EVENTS)
      await post(server.url, server.key, warm.slice(i, i + BATCH_EVENTS));

    // (1) Ingestion.
    const events = Array.from({ length: TURNS }, (_, i) => turnEvents("bench", i)).flat();
    // SENDERS clients at once, as many agents' spools would: the server overlaps one batch's retrieval with another's statements.
    const batches = Array.from({ length: Math.ceil(events.length / BATCH_EVENTS) }, (_, b) =>
      events.slice(b * BATCH_EVENTS, (b + 1) * BATCH_EVENTS),
    );
    const started = performance.now();
    await Promise.all(
      Array.from({ length: SENDERS }, async () => {
        for (let batch = batches.shift(); batch; batch = batches.shift())
          await post(server.url, server.key, batch);
      }),
    );
    const apiSeconds = (performance.now() - started) / 1000;
    const apiLoad = load();

    // The baseline: the same turns and tool calls as plain rows, multi-row INSERTs of the same batch size.
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    await client.query(
      `CREATE TABLE bench_turn (id text PRIMARY KEY, session_id text, number int, prompt text, response text)`,
    );
    await client.query(
      `CREATE TABLE bench_tool (id text PRIMARY KEY, session_id text, turn_number int, name text, input jsonb, output text)`,
    );
    const insertStarted = performance.now();
    const perBatch = Math.floor(BATCH_EVENTS / 3);
    for (let i = 0; i < TURNS; i += perBatch) {
      const n = Math.min(perBatch, TURNS - i);
      const turns = Array.from({ length: n }, (_, j) => [
        `t${i + j}`,
        `s${Math.floor((i + j) / 10)}`,
        ((i + j) % 10) + 1,
        `refactor the module number ${i + j} and add tests`,
        "I split the module and added tests; all pass.",
      ]);
      const tools = Array.from({ length: n }, (_, j) => [
        `c${i + j}`,
        `s${Math.floor((i + j) / 10)}`,
        ((i + j) % 10) + 1,
        "Bash",
        JSON.stringify({ command: "npm test" }),
        "12 passing\nExit code: 0",
      ]);
      await client.query(
        `INSERT INTO bench_turn VALUES ${turns.map((_, r) => `($${r * 5 + 1}, $${r * 5 + 2}, $${r * 5 + 3}, $${r * 5 + 4}, $${r * 5 + 5})`).join(", ")}`,
        turns.flat(),
      );
      await client.query(
        `INSERT INTO bench_tool VALUES ${tools.map((_, r) => `($${r * 6 + 1}, $${r * 6 + 2}, $${r * 6 + 3}, $${r * 6 + 4}, $${r * 6 + 5}, $${r * 6 + 6})`).join(", ")}`,
        tools.flat(),
      );
    }
    const insertSeconds = (performance.now() - insertStarted) / 1000;
    await client.end();
    console.log(
      `ingestion: ${TURNS} turns (prompt with lexical retrieval, tool call, stop) through the API (${SENDERS} senders, batches of ${BATCH_EVENTS} events) in ${apiSeconds.toFixed(2)} s = ${Math.round(TURNS / apiSeconds)} turns/s [load ${apiLoad}]; ` +
        `plain multi-row INSERT of the same turns and tool calls ${Math.round(TURNS / insertSeconds)} turns/s [load ${load()}]; ratio API/INSERT throughput ${(insertSeconds / apiSeconds).toFixed(3)}`,
    );

    // (2) The UserPromptSubmit hook against `node -e 0`.
    const hookEnv = {
      ...process.env,
      CHARTER_URL: server.url,
      CHARTER_API_KEY: server.key,
      CHARTER_SPOOL_DIR: path.join(server.dataDir, "spool"),
    };
    const payload = (i: number) =>
      JSON.stringify({
        session_id: "bench-hook",
        transcript_path: "/tmp/none.jsonl",
        cwd: ROOT,
        hook_event_name: "UserPromptSubmit",
        prompt: `write a SQL injection test for my own login form ${i}`,
      });
    const hook: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < HOOK_RUNS; i++) {
      let t = performance.now();
      const out = spawnSync(process.execPath, [BIN, "hook", "UserPromptSubmit"], {
        env: hookEnv,
        input: payload(i),
        encoding: "utf8",
      });
      hook.push(performance.now() - t);
      if (i === 0 && !out.stdout.includes("additionalContext"))
        throw new Error(`the hook printed no context: ${out.stdout} ${out.stderr}`);
      t = performance.now();
      spawnSync(process.execPath, ["-e", "0"]);
      bare.push(performance.now() - t);
    }
    console.log(
      `UserPromptSubmit hook: median ${median(hook).toFixed(0)} ms (max ${Math.max(...hook).toFixed(0)} ms); node -e 0: median ${median(bare).toFixed(0)} ms; ratio ${(median(hook) / median(bare)).toFixed(2)} [load ${load()}]`,
    );

    // (3) Cold start: restart the server, and send the first prompt through the hook as soon as it is healthy.
    process.kill(-server.process.pid!, "SIGTERM");
    await new Promise((r) => setTimeout(r, 1_500));
    const restarted = spawn(process.execPath, [BIN, "serve", "--port", String(PORT)], {
      env: server.env,
      cwd: ROOT,
      stdio: "ignore",
      detached: true,
    });
    try {
      const ready = await waitHealthy(server.url);
      const t = performance.now();
      const out = spawnSync(process.execPath, [BIN, "hook", "UserPromptSubmit"], {
        env: hookEnv,
        input: payload(999),
        encoding: "utf8",
      });
      const first = performance.now() - t;
      console.log(
        `cold start: healthy after ${(ready / 1000).toFixed(1)} s; first UserPromptSubmit hook ${first.toFixed(0)} ms, ${out.stdout.includes("additionalContext") ? "context injected" : `NO context (${out.stderr.trim()})`} [load ${load()}]`,
      );
    } finally {
      try {
        process.kill(-restarted.pid!, "SIGTERM");
      } catch {
        // gone
      }
    }
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  } finally {
    await server.stop();
  }
}

await main();
