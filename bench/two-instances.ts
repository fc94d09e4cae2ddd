/**
 * Two instances on one PostgreSQL (docs/deployment.md): events for SESSIONS sessions
 * (default 200) sent alternately through both, each session's events in order (a
 * prompt, a tool call, a stop, an end), sessions side by side; then the database is
 * checked: no event lost, none doubled, one turn, one outcome and one set of credits
 * per session. Then what crosses instances: a constitution version saved by another
 * process (`charter constitution import`) is served by each instance on its next
 * prompt; a key revoked by another process (`charter keys revoke`) is refused by
 * each instance (time to the first 401); a recompute job is claimed once. Prints
 * figures with the load average; a 503 is resent after its Retry-After, as the hook's
 * spool would, and counted.
 * Run: CHARTER_NEXT_DIST_DIR=.next-x npx next build && CHARTER_NEXT_DIST_DIR=.next-x npx tsx bench/two-instances.ts
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { BIN, ROOT, startBenchServer, startSecondInstance } from "./support/server";

const PORT = Number(process.env.BENCH_PORT ?? 3560);
const SESSIONS = Number(process.env.SESSIONS ?? 200);
/** Sessions in flight at once (each sends its own events one after another). */
const PARALLEL = Number(process.env.PARALLEL ?? 50);
const MAX_RESENDS = 20;

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

/** Answers by HTTP status (0: the connection failed); `resent` counts the sends repeated after a 503 or a failed connection. */
type Counts = { answered: Record<number, number>; resent: number };

function events(session: string): Record<string, unknown>[] {
  return [
    { type: "UserPromptSubmit", prompt: `${session}: add input validation to the signup form` },
    {
      type: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: "npm test" },
      tool_response: { stdout: "14 passing", stderr: "", interrupted: false },
      tool_use_id: "toolu_1",
    },
    { type: "Stop", response: "Added validation and a test; the suite passes." },
    { type: "SessionEnd", reason: "exit" },
  ].map((e, i) => ({ ...e, id: `${session}-e${i}`, session_id: session }));
}

/** Posts one event, resending after Retry-After on a 503 (as the hook's spool does); returns the last status. */
async function send(url: string, key: string, event: unknown, counts: Counts): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await fetch(`${url}/api/v1/events`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": key },
        body: JSON.stringify(event),
      });
      await res.arrayBuffer();
    } catch (error) {
      // A kept-alive connection the server closed as it was reused: the hook would spool and resend.
      if (attempt >= MAX_RESENDS) throw error;
      counts.resent++;
      counts.answered[0] = (counts.answered[0] ?? 0) + 1;
      continue;
    }
    counts.answered[res.status] = (counts.answered[res.status] ?? 0) + 1;
    if (res.status !== 503 || attempt >= MAX_RESENDS) return res.status;
    counts.resent++;
    await new Promise((r) => setTimeout(r, Number(res.headers.get("retry-after") ?? 1) * 1000));
  }
}

/** Runs a charter CLI command against the instances' database; returns its stdout. */
function charter(env: NodeJS.ProcessEnv, args: string[]): string {
  const out = spawnSync(process.execPath, [BIN, ...args], { env, cwd: ROOT, encoding: "utf8" });
  if (out.status !== 0) throw new Error(`charter ${args.join(" ")} failed: ${out.stderr}`);
  return out.stdout;
}

/** Milliseconds from now until `check` holds (polled every 20 ms), or null after `limitMs`. */
async function timeUntil(check: () => Promise<boolean>, limitMs: number): Promise<number | null> {
  const started = performance.now();
  while (performance.now() - started < limitMs) {
    if (await check()) return performance.now() - started;
    await new Promise((r) => setTimeout(r, 20));
  }
  return null;
}

async function main(): Promise<void> {
  console.log(`two instances on one PostgreSQL; load average ${load()}`);
  const first = await startBenchServer({ port: PORT, scopes: ["ingest", "read"] });
  let second: Awaited<ReturnType<typeof startSecondInstance>> | undefined;
  const db = new pg.Client({ connectionString: first.databaseUrl });
  try {
    second = await startSecondInstance(first, PORT + 1);
    await db.connect();
    const urls = [first.url, second.url];
    console.log(`instances ${urls.join(" and ")} ready; load average ${load()}`);

    // (1) Sessions alternately through both instances.
    const counts: Counts = { answered: {}, resent: 0 };
    const names = Array.from({ length: SESSIONS }, (_, s) => `two-inst-${process.pid}-${s}`);
    const started = performance.now();
    let next = 0;
    const failed: string[] = [];
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        while (next < names.length) {
          const s = next++;
          const list = events(names[s]!);
          for (let k = 0; k < list.length; k++) {
            const status = await send(urls[(s + k) % 2]!, first.key, list[k], counts);
            if (status !== 200) failed.push(`${String(list[k]!.id)}: ${status}`);
          }
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const like = `two-inst-${process.pid}-%`;
    const one = async (sql: string) =>
      Number((await db.query<{ n: string }>(sql, [like])).rows[0]!.n);
    const stored = await one(`SELECT count(*) AS n FROM agent_event WHERE session_id LIKE $1`);
    const turns = await one(`SELECT count(*) AS n FROM turn WHERE session_id LIKE $1`);
    const badTurns = await one(
      `SELECT count(*) AS n FROM (SELECT session_id FROM turn WHERE session_id LIKE $1 GROUP BY session_id HAVING count(*) <> 1) t`,
    );
    const outcomes = await one(
      `SELECT count(*) AS n FROM session_outcome WHERE session_id LIKE $1`,
    );
    const usage = await one(`SELECT count(*) AS n FROM principle_usage WHERE trace_id LIKE $1`);
    const doubledCredit = await one(
      `SELECT count(*) AS n FROM (SELECT trace_id, principle_id FROM principle_usage WHERE trace_id LIKE $1 GROUP BY 1, 2 HAVING count(*) > 1) d`,
    );
    const sent = SESSIONS * 4;
    console.log(
      `${SESSIONS} sessions, ${sent} events alternately through both in ${seconds.toFixed(1)} s: answers ${JSON.stringify(counts.answered)}, ${counts.resent} resent after 503; stored ${stored} (lost ${sent - stored}), turns ${turns} (sessions without exactly one: ${badTurns}), outcomes ${outcomes} of ${SESSIONS}, credited uses ${usage} (doubled: ${doubledCredit}); not delivered: ${failed.length}${failed.length ? ` (${failed.slice(0, 5).join("; ")})` : ""}; load average ${load()}`,
    );

    // (2) A version saved by another process, served by each instance on its next prompt.
    const dir = mkdtempSync(path.join(os.tmpdir(), "charter-two-inst-"));
    cpSync(path.join(ROOT, "constitution"), dir, { recursive: true });
    const core = path.join(dir, "core.yaml");
    writeFileSync(
      core,
      readFileSync(core, "utf8").replace(
        'title: "Non-Maleficence (Physical Harm)"',
        `title: "Non-Maleficence (Physical Harm, saved ${Date.now()})"`,
      ),
    );
    const saved = /saved as version (\d+)/.exec(
      charter(first.env, ["constitution", "import", dir, "-m", "two-instance bench"]),
    );
    const version = Number(saved?.[1]);
    for (const [i, url] of urls.entries()) {
      const session = `two-inst-version-${process.pid}-${i}`;
      const status = await send(url, first.key, events(session)[0], counts);
      const row = await db.query<{ v: number | null }>(
        `SELECT constitution_version_id AS v FROM turn WHERE session_id = $1`,
        [session],
      );
      console.log(
        `version ${version} saved by \`charter constitution import\`; the next prompt on instance ${i + 1} (${status}) was answered with version ${row.rows[0]?.v ?? "none"}${row.rows[0]?.v === version ? "" : " (stale)"}; load average ${load()}`,
      );
    }

    // (3) A key revoked by another process, refused by each instance.
    const made = JSON.parse(
      charter(first.env, [
        "keys",
        "create",
        "--name",
        "two-inst-revoke",
        "--scope",
        "ingest",
        "--json",
      ]),
    ) as { key: string };
    const asKey = async (url: string): Promise<number> => {
      for (let attempt = 0; ; attempt++) {
        try {
          return (await fetch(`${url}/api/health?auth=1`, { headers: { "x-api-key": made.key } }))
            .status;
        } catch (error) {
          // A kept-alive connection the server closed as it was reused: ask again.
          if (attempt >= MAX_RESENDS) throw error;
        }
      }
    };
    const before = await Promise.all(urls.map(asKey));
    charter(first.env, ["keys", "revoke", "two-inst-revoke"]);
    const refusedAfter = await Promise.all(
      urls.map((url) => timeUntil(async () => (await asKey(url)) === 401, 10_000)),
    );
    const after = (ms: number | null | undefined) =>
      ms === null || ms === undefined ? "more than 10 s" : `${ms.toFixed(0)} ms`;
    console.log(
      `key revoked by \`charter keys revoke\` (accepted before: ${before.join(", ")}); refused by instance 1 after ${after(refusedAfter[0])}, by instance 2 after ${after(refusedAfter[1])} (from the command's exit; goal <= 1000 ms); load average ${load()}`,
    );

    // (4) A recompute job, with both instances' workers polling: claimed once, done once.
    const script = path.join(first.dataDir, "weights.mts");
    writeFileSync(
      script,
      [
        `import { weightSets } from "@/lib/db/weights";`,
        `import { closeDb } from "@/lib/db/client";`,
        `const { jobId } = await weightSets.save({ ethical: 3 }, "two-instance bench", { id: null, label: "bench" });`,
        `console.log(jobId);`,
        `await closeDb();`,
      ].join("\n"),
    );
    const job = Number(
      spawnSync(
        path.join(ROOT, "node_modules/.bin/tsx"),
        ["--tsconfig", path.join(ROOT, "tsconfig.json"), script],
        { env: first.env, cwd: ROOT, encoding: "utf8" },
      )
        .stdout.trim()
        .split("\n")
        .at(-1),
    );
    const ran = await timeUntil(async () => {
      const r = await db.query<{ status: string }>(
        `SELECT status FROM background_job WHERE id = $1`,
        [job],
      );
      return r.rows[0]?.status === "done";
    }, 120_000);
    const row = (
      await db.query<{ status: string; attempts: number; done: number; total: number }>(
        `SELECT status, attempts, done, total FROM background_job WHERE id = $1`,
        [job],
      )
    ).rows[0];
    console.log(
      `recompute job ${job}: ${row?.status} in ${ran === null ? "more than 120 s" : `${(ran / 1000).toFixed(1)} s`}, claimed ${row?.attempts} time(s), ${row?.done} of ${row?.total} turns; load average ${load()}`,
    );
  } catch (error) {
    console.error(`instance 1's log:\n${first.output().slice(-4000)}`);
    console.error(`instance 2's log:\n${second?.output().slice(-4000) ?? ""}`);
    throw error;
  } finally {
    await db.end().catch(() => undefined);
    await second?.stop();
    await first.stop();
  }
}

await main();
