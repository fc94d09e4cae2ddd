/**
 * What a turn costs through the OpenTelemetry endpoint, against the same turn as events
 * in the same run: each round sends one agent turn (a prompt, a tool call, the reply) as
 * an OTLP/HTTP JSON export of GenAI spans to `POST /api/public/otel/v1/traces`, and the
 * events it maps to as one batch to `POST /api/v1/events` (the baseline), interleaved,
 * CONCURRENCY at a time. Prints the medians and p99s, the ratio of the medians, the turns
 * stored by each path, and the load average.
 * Run: npx tsx bench/otel-ingest.ts   (a production build in CHARTER_NEXT_DIST_DIR or .next,
 * PostgreSQL on 127.0.0.1:5432). Knobs: BENCH_PORT (3298), TURNS (300), CONCURRENCY (20).
 */
import { performance } from "node:perf_hooks";
import pg from "pg";
import { exportOf } from "@/lib/otel/fixtures";
import { startBenchServer } from "./support/server";
import { loadAverage as load, median } from "./support/stats";

const PORT = Number(process.env.BENCH_PORT ?? 3298);
const TURNS = Number(process.env.TURNS ?? 300);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 20);

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)] ?? NaN;

/** Turn i as the OpenAI Agents SDK's instrumentation exports it: agent, model call, tool, model call. */
function traceOf(i: number, run: string) {
  const prompt = `Rotate the staging database password and update the deploy config (${run} ${i})`;
  const common = { "gen_ai.conversation.id": `otel-bench-${run}-${i}` };
  const user = { role: "user", parts: [{ type: "text", content: prompt }] };
  const call = { type: "tool_call", id: `call-${i}`, name: "run_shell", arguments: { cmd: "ls" } };
  return exportOf({
    traceId: hex(i + 1, 32),
    startedAt: new Date(Date.now() - 60_000).toISOString(),
    resource: { "service.name": "bench-agent", "service.version": "1.0.0" },
    scope: "bench",
    spans: [
      {
        spanId: hex(4 * i + 1, 16),
        name: "invoke_agent Assistant",
        start: 0,
        end: 400,
        attributes: { ...common, "gen_ai.operation.name": "invoke_agent" },
      },
      {
        spanId: hex(4 * i + 2, 16),
        parentSpanId: hex(4 * i + 1, 16),
        name: "chat gpt-4o",
        start: 10,
        end: 100,
        attributes: {
          ...common,
          "gen_ai.operation.name": "chat",
          "gen_ai.input.messages": JSON.stringify([user]),
          "gen_ai.output.messages": JSON.stringify([
            { role: "assistant", parts: [call], finish_reason: "tool_call" },
          ]),
        },
      },
      {
        spanId: hex(4 * i + 3, 16),
        parentSpanId: hex(4 * i + 1, 16),
        name: "execute_tool run_shell",
        start: 110,
        end: 200,
        attributes: {
          ...common,
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.tool.name": "run_shell",
          "gen_ai.tool.call.id": `call-${i}`,
          "gen_ai.tool.call.arguments": JSON.stringify({ cmd: "ls" }),
          "gen_ai.tool.call.result": "deploy.yaml",
        },
      },
      {
        spanId: hex(4 * i + 4, 16),
        parentSpanId: hex(4 * i + 1, 16),
        name: "chat gpt-4o",
        start: 210,
        end: 390,
        attributes: {
          ...common,
          "gen_ai.operation.name": "chat",
          "gen_ai.input.messages": JSON.stringify([user]),
          "gen_ai.output.messages": JSON.stringify([
            {
              role: "assistant",
              parts: [
                { type: "text", content: "Rotated; the config now reads it from the vault." },
              ],
              finish_reason: "stop",
            },
          ]),
        },
      },
    ],
  });
}

/** The same turn as the events the endpoint maps it to, in its own session. */
function eventsOf(i: number, run: string) {
  const session = `events-bench-${run}-${i}`;
  const base = { session_id: session, agent: "bench-agent", agent_version: "1.0.0" };
  return {
    events: [
      {
        ...base,
        id: `${session}-prompt`,
        type: "UserPromptSubmit",
        prompt: `Rotate the staging database password and update the deploy config (${run} ${i})`,
        context_delivered: false,
        agent_takes_context: false,
      },
      {
        ...base,
        id: `${session}-tool`,
        type: "PostToolUse",
        tool_name: "run_shell",
        tool_use_id: `call-${i}`,
        tool_input: { cmd: "ls" },
        tool_response: "deploy.yaml",
      },
      {
        ...base,
        id: `${session}-stop`,
        type: "Stop",
        response: "Rotated; the config now reads it from the vault.",
      },
    ],
  };
}

async function timed(url: string, key: string, body: unknown): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${text.slice(0, 300)}`);
  return performance.now() - started;
}

const server = await startBenchServer({ port: PORT, scopes: ["ingest"] });
const run = Date.now().toString(36);
try {
  const otel = `${server.url}/api/public/otel/v1/traces`;
  const events = `${server.url}/api/v1/events`;
  // Each route's first request compiles nothing in production, but warms its modules and the key cache.
  await timed(otel, server.key, traceOf(TURNS, `warm-${run}`));
  await timed(events, server.key, eventsOf(TURNS, `warm-${run}`));
  const times = { otel: [] as number[], events: [] as number[] };
  const before = load();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < TURNS; i = next++) {
        times.otel.push(await timed(otel, server.key, traceOf(i, run)));
        times.events.push(await timed(events, server.key, eventsOf(i, run)));
      }
    }),
  );
  const after = load();
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  const count = async (prefix: string) =>
    (
      await client.query<{ n: string }>(
        "SELECT count(*) AS n FROM turn WHERE session_id LIKE $1 AND stopped_at IS NOT NULL",
        [`${prefix}-${run}-%`],
      )
    ).rows[0]!.n;
  const stored = { otel: await count("otel-bench"), events: await count("events-bench") };
  await client.end();
  const o = median(times.otel);
  const e = median(times.events);
  console.log(
    `${TURNS} turns each way, ${CONCURRENCY} at a time, interleaved; load average before ${before}, after ${after}`,
  );
  console.log(
    `  /api/v1/events (baseline)        p50 ${e.toFixed(1)} ms  p99 ${p99(times.events).toFixed(1)} ms`,
  );
  console.log(
    `  /api/public/otel/v1/traces       p50 ${o.toFixed(1)} ms  p99 ${p99(times.otel).toFixed(1)} ms  ratio ${(o / e).toFixed(2)}x`,
  );
  console.log(`  turns stored and scored: ${stored.otel} through OTLP, ${stored.events} as events`);
} finally {
  await server.stop();
}
