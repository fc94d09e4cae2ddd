/**
 * Many agents at once, loopback only, bounded in count and time: AGENTS simulated
 * agents (default 1,000), each with its own spool directory (its own machine), send
 * one session each (a prompt, 3 tool calls, a stop, an end) through the hook's own
 * code (`runHook`, as `charter hook` runs it), spread over SPREAD_S seconds (default
 * 60). Then every spool is flushed and the database is checked: no event lost, none
 * recorded twice, and every server answer counted (5xx other than 503 must be 0), and
 * the share of prompts whose context reached the agent (the hook printed it).
 * Run: npx next build && npx tsx bench/load-agents.ts   (PostgreSQL on 127.0.0.1:5432)
 * Knobs: AGENTS (1000), SPREAD_S (60), BENCH_PORT (3298).
 */
import { mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { flushSpool, runHook, type Io } from "@/cli/hook/run";
import { listenerPid, rssBytes, startBenchServer } from "./support/server";
import { loadAverage } from "./support/stats";

const PORT = Number(process.env.BENCH_PORT ?? 3298);
const AGENTS = Number(process.env.AGENTS ?? 1_000);
const SPREAD_S = Number(process.env.SPREAD_S ?? 60);
/** Claude Code runs hooks one after another within an agent; agents run side by side. */
const EVENTS: {
  type: "UserPromptSubmit" | "PostToolUse" | "Stop" | "SessionEnd";
  payload: (i: number) => Record<string, unknown>;
}[] = [
  {
    type: "UserPromptSubmit",
    payload: (i) => ({
      prompt: `agent ${i}: add input validation to the signup form and a test for it`,
    }),
  },
  {
    type: "PostToolUse",
    payload: () => ({
      tool_name: "Read",
      tool_input: { file_path: "src/signup.ts" },
      tool_response: { type: "text", file: { filePath: "src/signup.ts", content: "export {}" } },
      tool_use_id: "toolu_1",
    }),
  },
  {
    type: "PostToolUse",
    payload: () => ({
      tool_name: "Edit",
      tool_input: { file_path: "src/signup.ts", old_string: "a", new_string: "b" },
      tool_response: { filePath: "src/signup.ts" },
      tool_use_id: "toolu_2",
    }),
  },
  {
    type: "PostToolUse",
    payload: () => ({
      tool_name: "Bash",
      tool_input: { command: "npm test" },
      tool_response: { stdout: "14 passing", stderr: "", interrupted: false },
      tool_use_id: "toolu_3",
    }),
  },
  { type: "Stop", payload: () => ({ stop_hook_active: false }) },
  { type: "SessionEnd", payload: () => ({ reason: "exit" }) },
];

async function main() {
  // Each simulated hook holds a spool lock with its own exit listener, as each real hook process does.
  process.setMaxListeners(0);
  const server = await startBenchServer({ port: PORT });
  const root = path.join(server.dataDir, "agents");
  const lines: string[] = [];
  const io: Io = { out: () => undefined, err: (line) => lines.push(line) };
  let peakRss = 0;
  // The process that answers (Next.js's server), measured the same way as in bench/fuzz-events.ts.
  const serverPid = listenerPid(PORT);
  const sampler = setInterval(
    () => (peakRss = Math.max(peakRss, (serverPid ? rssBytes(serverPid) : null) ?? 0)),
    500,
  );
  const hookMs: number[] = [];
  let withContext = 0;
  try {
    const started = performance.now();
    await Promise.all(
      Array.from({ length: AGENTS }, async (_, i) => {
        const spoolDir = path.join(root, `agent-${i}`, "spool");
        mkdirSync(spoolDir, { recursive: true });
        const config = {
          url: server.url,
          apiKey: server.key,
          spoolDir,
          fallbackSpoolDir: path.join(root, `agent-${i}`, "spool-fallback"),
        };
        await new Promise((r) => setTimeout(r, Math.random() * SPREAD_S * 1000 * 0.8));
        for (const step of EVENTS) {
          const payload = {
            session_id: `load-${i}`,
            transcript_path: `/tmp/load-${i}.jsonl`,
            cwd: "/work/app",
            hook_event_name: step.type,
            ...step.payload(i),
          };
          const t = performance.now();
          // What the hook prints for a prompt is what the agent is given.
          const stepIo: Io = {
            out: (text) => {
              if (text.includes("additionalContext")) withContext++;
            },
            err: io.err,
          };
          await runHook(step.type, JSON.stringify(payload), { config, io: stepIo, startedAt: t });
          hookMs.push(performance.now() - t);
          await new Promise((r) =>
            setTimeout(r, (Math.random() * (SPREAD_S * 1000 * 0.2)) / EVENTS.length),
          );
        }
      }),
    );
    const sendSeconds = (performance.now() - started) / 1000;
    const spooledBefore = readdirSync(root).reduce(
      (n, a) =>
        n + readdirSync(path.join(root, a, "spool")).filter((f) => f.endsWith(".json")).length,
      0,
    );
    // Every spool flushed, as `charter spool flush` would.
    const flushLines: string[] = [];
    for (let i = 0; i < AGENTS; i++)
      await flushSpool(
        {
          url: server.url,
          apiKey: server.key,
          spoolDir: path.join(root, `agent-${i}`, "spool"),
          fallbackSpoolDir: path.join(root, `agent-${i}`, "spool-fallback"),
        },
        { out: (t) => flushLines.push(t), err: (l) => flushLines.push(l) },
      );
    const left = readdirSync(root).reduce(
      (n, a) =>
        n + readdirSync(path.join(root, a, "spool")).filter((f) => f.endsWith(".json")).length,
      0,
    );
    const rejected = readdirSync(root).reduce((n, a) => {
      try {
        return (
          n +
          readdirSync(path.join(root, a, "spool", "rejected")).filter((f) => f.endsWith(".json"))
            .length
        );
      } catch {
        return n;
      }
    }, 0);

    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    const one = async (sql: string) => Number((await client.query(sql)).rows[0].n);
    const expected = AGENTS * EVENTS.length;
    const recorded = await one(
      `SELECT count(*) AS n FROM agent_event WHERE session_id LIKE 'load-%'`,
    );
    const turns = await one(`SELECT count(*) AS n FROM turn WHERE session_id LIKE 'load-%'`);
    const extraTurns = await one(
      `SELECT count(*) AS n FROM (SELECT session_id FROM turn WHERE session_id LIKE 'load-%' GROUP BY session_id HAVING count(*) > 1) AS x`,
    );
    const tools = await one(`SELECT count(*) AS n FROM tool_call WHERE session_id LIKE 'load-%'`);
    const scored = await one(
      `SELECT count(*) AS n FROM turn_score s JOIN turn t ON t.id = s.turn_id WHERE t.session_id LIKE 'load-%'`,
    );
    const ended = await one(
      `SELECT count(*) AS n FROM session_outcome WHERE session_id LIKE 'load-%'`,
    );
    const undelivered = await one(
      `SELECT count(*) AS n FROM turn WHERE session_id LIKE 'load-%' AND context_delivery <> 'delivered'`,
    );
    await client.end();

    const statuses = new Map<string, number>();
    for (const line of [...lines, ...flushLines]) {
      const m = /HTTP (\d{3})|no answer within|unreachable|out of time/.exec(line);
      if (m) statuses.set(m[1] ?? m[0], (statuses.get(m[1] ?? m[0]) ?? 0) + 1);
    }
    const fivexx = [...statuses]
      .filter(([k]) => /^5\d\d$/.test(k) && k !== "503")
      .reduce((n, [, v]) => n + v, 0);
    const sorted = [...hookMs].sort((a, b) => a - b);
    const load = loadAverage();
    console.log(
      `agents: ${AGENTS}, events sent: ${expected} in ${sendSeconds.toFixed(1)} s; hook p50 ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms, p99 ${sorted[Math.floor(sorted.length * 0.99)]!.toFixed(0)} ms [load ${load}]`,
    );
    console.log(
      `prompts whose context reached the agent: ${withContext} of ${AGENTS} (${((100 * withContext) / AGENTS).toFixed(1)}%); recorded as delivered: ${AGENTS - undelivered}`,
    );
    console.log(
      `spooled at the end of the run: ${spooledBefore}; after flushing: ${left} left, ${rejected} rejected`,
    );
    console.log(
      `recorded events: ${recorded} of ${expected} (lost ${expected - recorded}); turns ${turns} (sessions with more than one: ${extraTurns}); tool calls ${tools} of ${AGENTS * 3}; scored ${scored}; outcomes ${ended}; turns whose context did not reach the agent ${undelivered}`,
    );
    if (process.env.SHOW_LINES)
      console.log([...new Set(lines.map((l) => l.replace(/\d+/g, "N")))].slice(0, 15).join("\n"));
    console.log(
      `hook stderr by cause: ${JSON.stringify(Object.fromEntries(statuses))}; 5xx other than 503: ${fivexx}; server peak RSS ${(peakRss / 1024 / 1024).toFixed(0)} MB`,
    );
    if (recorded !== expected || extraTurns > 0 || tools !== AGENTS * 3 || fivexx > 0)
      process.exitCode = 1;
  } finally {
    clearInterval(sampler);
    await server.stop();
  }
}

await main();
