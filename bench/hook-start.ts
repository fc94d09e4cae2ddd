/**
 * What the UserPromptSubmit hook costs an agent: the command `charter hooks install` writes
 * (`node bin/charter-hook.cjs hook UserPromptSubmit`) and `node bin/charter.mjs hook
 * UserPromptSubmit`, with a payload piped in, against an events server on loopback, as a
 * ratio to `node -e 0`, each run ROUNDS times, interleaved so that load on the machine
 * weighs on every command alike. The load average
 * is printed beside the figures. The default server is the scripted one of the hook's tests
 * (test/events-server.ts: it answers like Charter, with a context); `--real` starts Charter
 * itself (`charter serve` from the build in CHARTER_NEXT_DIST_DIR, on a fresh PostgreSQL
 * database, port BENCH_PORT or 3400). Builds dist/hook.cjs first.
 * Run: npx tsx bench/hook-start.ts [rounds] [--real]
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEventsServer } from "@/test/events-server";
import { loadAverage as load, median } from "./support/stats";

const ROOT = path.resolve(import.meta.dirname, "..");
const BIN = path.join(ROOT, "bin", "charter.mjs");
const HOOK_BIN = path.join(ROOT, "bin", "charter-hook.cjs");
const args = process.argv.slice(2);
const REAL = args.includes("--real");
const ROUNDS = Number(args.find((a) => /^\d+$/.test(a)) ?? 21);
const GOAL = 2;

/** A command, and for a hook the payload it reads (a fixture of cli/hook/fixtures/) and the key of its session id. */
type Case = { name: string; args: string[]; hook: boolean; fixture?: string; sessionKey?: string };
const CASES: Case[] = [
  { name: "node -e 0", args: ["-e", "0"], hook: false },
  {
    name: "installed: charter-hook.cjs hook …",
    args: [HOOK_BIN, "hook", "UserPromptSubmit"],
    hook: true,
  },
  {
    name: "charter.mjs hook UserPromptSubmit",
    args: [BIN, "hook", "UserPromptSubmit"],
    hook: true,
  },
  // The other agents' installed commands, each with its own prompt payload (Cursor's prompt
  // takes no context, so its session start is the one that is answered with context).
  {
    name: "codex UserPromptSubmit",
    args: [HOOK_BIN, "hook", "--agent", "codex", "UserPromptSubmit"],
    hook: true,
    fixture: "codex/user-prompt-submit.json",
  },
  {
    name: "gemini BeforeAgent",
    args: [HOOK_BIN, "hook", "--agent", "gemini", "BeforeAgent"],
    hook: true,
    fixture: "gemini/before-agent.json",
  },
  {
    name: "cursor sessionStart",
    args: [HOOK_BIN, "hook", "--agent", "cursor", "sessionStart"],
    hook: true,
    fixture: "cursor/session-start.json",
    sessionKey: "conversation_id",
  },
];

const fixtures = new Map(
  CASES.map((c) => [
    c.name,
    JSON.parse(
      readFileSync(
        path.join(ROOT, "cli", "hook", "fixtures", c.fixture ?? "user-prompt-submit.json"),
        "utf8",
      ),
    ) as Record<string, unknown>,
  ]),
);

/** One run, start to exit; for a hook, whether the principles came back (the event was delivered). */
function runOnce(
  c: Case,
  env: NodeJS.ProcessEnv,
  round: number,
): Promise<{ ms: number; delivered: boolean; stderr: string }> {
  return new Promise((resolve, reject) => {
    const input = JSON.stringify({
      ...fixtures.get(c.name),
      [c.sessionKey ?? "session_id"]: `bench-hook-start-${process.pid}-${round}`,
    });
    const started = performance.now();
    const child = spawn(process.execPath, c.args, { env, stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.stdin.on("error", () => {
      // node -e 0 may exit before reading its stdin
    });
    child.on("close", (code) => {
      const ms = performance.now() - started;
      if (code !== 0) reject(new Error(`${c.name} exited ${code}: ${stderr.trim()}`));
      else resolve({ ms, delivered: /additionalContext|additional_context/.test(stdout), stderr });
    });
    child.stdin.end(c.hook ? input : "");
  });
}

const build = spawnSync(process.execPath, [path.join(ROOT, "scripts", "build-hook.mjs")], {
  stdio: "inherit",
});
if (build.status !== 0) throw new Error("scripts/build-hook.mjs failed");

const work = mkdtempSync(path.join(os.tmpdir(), "charter-bench-hook-"));
let url: string;
let key: string;
let stop: () => Promise<void>;
if (REAL) {
  const { startBenchServer } = await import("./support/server");
  const server = await startBenchServer({ port: Number(process.env.BENCH_PORT ?? 3400) });
  ({ url, key } = server);
  stop = server.stop;
} else {
  key = "bench-key-0123456789";
  const server = await startEventsServer({
    behaviour: {
      apiKey: key,
      context: (e) => `Principles for: ${e.prompt.slice(0, 20)}`,
      sessionContext: () => "Hard constraints for the session",
    },
  });
  url = server.url;
  stop = server.close;
}
// Only these settings: no developer's hook config or spool leaks in.
const env: NodeJS.ProcessEnv = {
  NODE_ENV: "production",
  PATH: process.env.PATH,
  HOME: work,
  TMPDIR: work,
  CHARTER_URL: url,
  CHARTER_API_KEY: key,
  CHARTER_SPOOL_DIR: path.join(work, "spool"),
};

try {
  // Once each, untimed: the server's first answer and the file cache are not what is measured.
  for (const c of CASES) await runOnce(c, env, -1);
  const times = new Map<string, number[]>(CASES.map((c) => [c.name, []]));
  let delivered = 0;
  let hookRuns = 0;
  const loadBefore = load();
  for (let round = 0; round < ROUNDS; round++)
    for (const c of CASES) {
      const result = await runOnce(c, env, round);
      times.get(c.name)!.push(result.ms);
      if (c.hook) {
        hookRuns++;
        if (result.delivered) delivered++;
        else console.error(`  not delivered: ${result.stderr.trim()}`);
      }
    }
  const baseline = median(times.get(CASES[0]!.name)!);
  console.log(
    `${ROUNDS} runs each, interleaved, against ${REAL ? "Charter (charter serve)" : "the scripted events server"} at ${url}`,
  );
  console.log(`load average before: ${loadBefore}, after: ${load()} (${os.cpus().length} cores)`);
  for (const c of CASES) {
    const ms = median(times.get(c.name)!);
    const ratio = ms / baseline;
    const verdict = c.hook ? `goal <= ${GOAL}x: ${ratio <= GOAL ? "met" : "MISSED"}` : "baseline";
    console.log(
      `  ${c.name.padEnd(36)} ${ms.toFixed(0).padStart(6)} ms  ${ratio.toFixed(2).padStart(6)}x  ${verdict}`,
    );
  }
  console.log(`  delivered with principles: ${delivered} of ${hookRuns} hook runs`);
} finally {
  await stop();
  rmSync(work, { recursive: true, force: true });
}
