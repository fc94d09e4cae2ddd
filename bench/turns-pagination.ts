/**
 * The Turns table at a million turns: a keyset page deep in the list against the
 * same page fetched with OFFSET, measured in the same run, plus a filtered page.
 * Run: npx tsx bench/turns-pagination.ts   (needs PostgreSQL on 127.0.0.1:5432)
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import pg from "pg";
import { switchDatabase, closeDb } from "@/lib/db/client";
import { turns } from "@/lib/db/turns";

const ROOT = path.resolve(import.meta.dirname, "..");
const TURNS = 1_000_000;
const DEPTH = 900_000;
const SERVER = "postgresql://postgres@127.0.0.1:5432";
const DB = `charter_bench_pages_${process.pid}`;
const URL = `${SERVER}/${DB}`;

async function sql(url: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

async function timed<T>(run: () => Promise<T>, times = 7): Promise<{ ms: number; value: T }> {
  let value = await run();
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    value = await run();
    samples.push(performance.now() - started);
  }
  return { ms: samples.sort((a, b) => a - b)[Math.floor(times / 2)]!, value };
}

await sql(`${SERVER}/postgres`, `DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
await sql(`${SERVER}/postgres`, `CREATE DATABASE ${DB}`);
try {
  spawnSync(process.execPath, [path.join(ROOT, "bin/charter.mjs"), "db", "migrate"], {
    env: { ...process.env, DATABASE_URL: URL },
    cwd: ROOT,
    stdio: "inherit",
  });
  const fill = performance.now();
  await sql(
    URL,
    `INSERT INTO agent_session (id) SELECT 's' || g FROM generate_series(1, ${TURNS / 100}) g`,
  );
  await sql(
    URL,
    `INSERT INTO turn (id, session_id, number, prompt) SELECT 't' || lpad(g::text, 8, '0'), 's' || (1 + g / 100), 1 + g % 100, 'prompt ' || g FROM generate_series(0, ${TURNS - 1}) g`,
  );
  await sql(
    URL,
    `INSERT INTO turn_score (turn_id, engine_scores, tasteful, curated, ethical, joy_inducing, composable, heterarchical, generative, weighted_total, max_total, normalized_total, reasoning, weight_set_id, scored_at)
     SELECT 't' || lpad(g::text, 8, '0'), '{}'::jsonb, 1, 1, CASE WHEN g % 7 = 0 THEN 0.5 ELSE 1 END, 1, 1, 1, 1, 8.7, 8.7, CASE WHEN g % 7 = 0 THEN 0.885 ELSE 1 END, '', 1, now() - g * interval '1 second'
     FROM generate_series(0, ${TURNS - 1}) g`,
  );
  await sql(URL, "ANALYZE");
  console.log(
    `filled ${TURNS.toLocaleString("en")} scored turns in ${((performance.now() - fill) / 1000).toFixed(1)} s`,
  );

  await switchDatabase({ kind: "postgres", url: URL });
  const anchor = (
    await sql(
      URL,
      `SELECT turn_id, scored_at FROM turn_score ORDER BY scored_at DESC, turn_id DESC OFFSET ${DEPTH - 1} LIMIT 1`,
    )
  ).rows[0] as { turn_id: string; scored_at: Date };
  const cursor = { scoredAt: anchor.scored_at.toISOString(), turnId: anchor.turn_id };

  const first = await timed(() => turns.list({}));
  const deep = await timed(() => turns.list({}, { cursor }));
  const offset = await timed(() =>
    sql(
      URL,
      `SELECT * FROM turn_score ORDER BY scored_at DESC, turn_id DESC OFFSET ${DEPTH} LIMIT 50`,
    ),
  );
  const filtered = await timed(() => turns.list({ principle: "ethical", below: 0.9 }, { cursor }));
  if (deep.value.rows[0]?.id !== (offset.value.rows[0] as { turn_id: string }).turn_id)
    throw new Error("keyset and OFFSET disagree");
  console.log(
    `first page ${first.ms.toFixed(1)} ms; page at depth ${DEPTH.toLocaleString("en")}: keyset ${deep.ms.toFixed(1)} ms vs OFFSET ${offset.ms.toFixed(1)} ms (ratio keyset/offset ${(deep.ms / offset.ms).toFixed(3)}); filtered "ethical below 0.9" at that depth ${filtered.ms.toFixed(1)} ms`,
  );
} finally {
  await closeDb();
  await sql(`${SERVER}/postgres`, `DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
}
