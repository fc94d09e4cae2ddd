/**
 * Agents in: (1) batch ingestion, turns per second into PostgreSQL through
 * `POST /api/v1/events`, against a plain multi-row INSERT of the same rows with `pg`;
 * (2) the UserPromptSubmit hook's wall time against `node -e 0`. Both baselines are
 * measured in the same run. It starts its own server on a fresh PostgreSQL database.
 * Run: npx tsx bench/agents.ts   (needs PostgreSQL on 127.0.0.1:5432 and `npm install` done)
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

const ROOT = path.resolve(import.meta.dirname, "..");
const PORT = 3299;
const TURNS = 2_000;
const BATCH_EVENTS = 1_000;
const HOOK_RUNS = 15;
const DB = `charter_bench_${process.pid}`;
const SERVER = "postgresql://postgres@127.0.0.1:5432";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: `${SERVER}/postgres` });
  await client.connect();
  await client.query(sql);
  await client.end();
}

async function main() {
  await admin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${DB}`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "charter-bench-"));
  const env = { ...process.env, DATABASE_URL: `${SERVER}/${DB}`, CHARTER_DATA_DIR: dataDir, BETTER_AUTH_SECRET: randomBytes(32).toString("hex"), BETTER_AUTH_URL: `http://127.0.0.1:${PORT}`, NODE_ENV: "production" as const };
  delete (env as Record<string, unknown>).OPENAI_API_KEY;
  delete (env as Record<string, unknown>).OPENAI_BASE_URL;
  const bin = path.join(ROOT, "bin", "charter.mjs");

  // An admin and an ingest key, made in a child process with the same environment.
  const keyScript = path.join(dataDir, "key.mts");
  writeFileSync(
    keyScript,
    `import { upsertAdmin } from "@/lib/auth/bootstrap";\nimport { apiKeys } from "@/lib/db/api-keys";\nimport { closeDb } from "@/lib/db/client";\nconst a = await upsertAdmin("bench@charter.local", "Bench");\nconst k = await apiKeys.create({ name: "bench", scopes: ["ingest"] }, { id: a.id, label: "bench" });\nconsole.log(k.key);\nawait closeDb();\n`,
  );
  spawnSync(process.execPath, [bin, "db", "migrate"], { env, cwd: ROOT, stdio: "inherit" });
  const made = spawnSync(path.join(ROOT, "node_modules/.bin/tsx"), ["--tsconfig", path.join(ROOT, "tsconfig.json"), keyScript], { env, cwd: ROOT, encoding: "utf8" });
  const key = made.stdout.trim().split("\n").at(-1)!;
  if (!key.startsWith("chk_")) throw new Error(`could not make an API key: ${made.stderr}`);

  const server = spawn(process.execPath, [bin, "serve", "--port", String(PORT)], { env, cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], detached: true });
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`http://127.0.0.1:${PORT}/api/health`)).ok) break;
      } catch {
        // not up yet
      }
      if (i > 600) throw new Error("the server did not start");
      await new Promise((r) => setTimeout(r, 500));
    }

    // (1) Ingestion: TURNS turns, each a UserPromptSubmit and a Stop, in batches of BATCH_EVENTS events.
    const events = Array.from({ length: TURNS }, (_, i) => [
      { type: "UserPromptSubmit", id: `bench-p-${i}`, session_id: `bench-s-${Math.floor(i / 10)}`, prompt: `refactor the module number ${i} and add tests` },
      { type: "Stop", id: `bench-s-${i}`, session_id: `bench-s-${Math.floor(i / 10)}`, response: "I split the module and added tests; all pass." },
    ]).flat();
    const started = performance.now();
    for (let i = 0; i < events.length; i += BATCH_EVENTS) {
      const res = await fetch(`http://127.0.0.1:${PORT}/api/v1/events`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": key }, body: JSON.stringify({ events: events.slice(i, i + BATCH_EVENTS) }) });
      if (!res.ok) throw new Error(`ingest failed: ${res.status} ${await res.text()}`);
    }
    const apiSeconds = (performance.now() - started) / 1000;

    const client = new pg.Client({ connectionString: `${SERVER}/${DB}` });
    await client.connect();
    await client.query(`CREATE TABLE bench_turn (id text PRIMARY KEY, session_id text, number int, prompt text, response text)`);
    const rows = Array.from({ length: TURNS }, (_, i) => [`t${i}`, `bench-s-${Math.floor(i / 10)}`, (i % 10) + 1, `refactor the module number ${i} and add tests`, "I split the module and added tests; all pass."]);
    const insertStarted = performance.now();
    for (let i = 0; i < rows.length; i += BATCH_EVENTS / 2) {
      const chunk = rows.slice(i, i + BATCH_EVENTS / 2);
      const values = chunk.map((_, r) => `($${r * 5 + 1}, $${r * 5 + 2}, $${r * 5 + 3}, $${r * 5 + 4}, $${r * 5 + 5})`).join(", ");
      await client.query(`INSERT INTO bench_turn VALUES ${values}`, chunk.flat());
    }
    const insertSeconds = (performance.now() - insertStarted) / 1000;
    await client.end();
    console.log(`ingestion: ${TURNS} turns through the API in ${apiSeconds.toFixed(2)} s = ${Math.round(TURNS / apiSeconds)} turns/s; plain multi-row INSERT ${Math.round(TURNS / insertSeconds)} rows/s; ratio API/INSERT throughput ${(insertSeconds / apiSeconds).toFixed(3)}`);

    // (2) The UserPromptSubmit hook against `node -e 0`.
    const hookEnv = { ...process.env, CHARTER_URL: `http://127.0.0.1:${PORT}`, CHARTER_API_KEY: key, CHARTER_SPOOL_DIR: path.join(dataDir, "spool") };
    const payload = (i: number) => JSON.stringify({ session_id: "bench-hook", transcript_path: "/tmp/none.jsonl", cwd: ROOT, hook_event_name: "UserPromptSubmit", prompt: `write a SQL injection test for my own login form ${i}` });
    const hook: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < HOOK_RUNS; i++) {
      let t = performance.now();
      const out = spawnSync(process.execPath, [bin, "hook", "UserPromptSubmit"], { env: hookEnv, input: payload(i), encoding: "utf8" });
      hook.push(performance.now() - t);
      if (i === 0 && !out.stdout.includes("additionalContext")) throw new Error(`the hook printed no context: ${out.stdout} ${out.stderr}`);
      t = performance.now();
      spawnSync(process.execPath, ["-e", "0"]);
      bare.push(performance.now() - t);
    }
    console.log(`UserPromptSubmit hook: median ${median(hook).toFixed(0)} ms (max ${Math.max(...hook).toFixed(0)} ms); node -e 0: median ${median(bare).toFixed(0)} ms; ratio ${(median(hook) / median(bare)).toFixed(2)}`);
  } finally {
    try {
      process.kill(-server.pid!, "SIGTERM");
    } catch {
      // gone
    }
    await new Promise((r) => setTimeout(r, 1_000));
    await admin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  }
}

await main();
