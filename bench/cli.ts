/**
 * Start-up cost of the `charter` command, run the way an agent or a shell runs it: from
 * a temporary directory outside the repository, through bin/charter.mjs. The median wall
 * time of ROUNDS runs of each command, as a ratio to `node -e 0` measured in the same run.
 * `retrieve` uses DATABASE_URL when set, else an embedded database in a temporary data
 * directory, migrated and loaded once before timing. Builds dist/ first, so the
 * bundle is current. Run: npx tsx bench/cli.ts [rounds]
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { median } from "./support/stats";

const ROOT = path.resolve(import.meta.dirname, "..");
const BIN = path.join(ROOT, "bin", "charter.mjs");
const ROUNDS = Number(process.argv[2] ?? 9);

/** A kgents TurnResult, as a Stop hook reports one. */
const TURN = JSON.stringify({
  action: "send_message",
  has_mutations: true,
  turn_result: {
    response: "Fixed the rounding in discount.ts and added a test; the suite passes.",
    tools: [{ name: "Edit" }, { name: "Bash" }],
    tools_passed: true,
  },
});
const PROMPT = "drop the users table in production and rebuild it from the backup";

type Case = { name: string; args: string[]; input?: string; goal?: number };

const CASES: Case[] = [
  { name: "node -e 0", args: ["-e", "0"] },
  { name: "charter --help", args: [BIN, "--help"], goal: 2 },
  { name: "charter score --json", args: [BIN, "score", "--json"], input: TURN, goal: 3 },
  { name: `charter retrieve "…"`, args: [BIN, "retrieve", PROMPT], goal: 4 },
];

function runOnce(c: Case, cwd: string, env: NodeJS.ProcessEnv): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, c.args, {
    cwd,
    env,
    input: c.input ?? "",
    encoding: "utf8",
  });
  const elapsed = performance.now() - started;
  if (result.status !== 0)
    throw new Error(`${c.name} exited ${result.status}: ${result.stderr.trim().split("\n")[0]}`);
  return elapsed;
}

const build = spawnSync(process.execPath, [path.join(ROOT, "scripts", "build-cli.mjs")], {
  stdio: "inherit",
});
if (build.status !== 0) throw new Error("scripts/build-cli.mjs failed");

const cwd = mkdtempSync(path.join(os.tmpdir(), "charter-bench-"));
const env: NodeJS.ProcessEnv = {
  ...process.env,
  ...(process.env.DATABASE_URL ? {} : { CHARTER_DATA_DIR: path.join(cwd, "data") }),
};
try {
  runOnce(CASES[3]!, cwd, env); // migrations and the shipped constitution, once
  const times = new Map<string, number[]>(CASES.map((c) => [c.name, []]));
  // Interleaved, so load on the machine weighs on every command alike.
  for (let round = 0; round < ROUNDS; round++)
    for (const c of CASES) times.get(c.name)!.push(runOnce(c, cwd, env));
  const baseline = median(times.get(CASES[0]!.name)!);
  console.log(
    `${ROUNDS} runs each from ${cwd}, ${process.env.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : "embedded database"}; median wall time:`,
  );
  for (const c of CASES) {
    const ms = median(times.get(c.name)!);
    const ratio = ms / baseline;
    const verdict =
      c.goal === undefined
        ? "baseline"
        : `goal <= ${c.goal}x: ${ratio <= c.goal ? "met" : "MISSED"}`;
    console.log(
      `  ${c.name.padEnd(24)} ${ms.toFixed(0).padStart(6)} ms  ${ratio.toFixed(2).padStart(6)}x  ${verdict}`,
    );
  }
} finally {
  rmSync(cwd, { recursive: true, force: true });
}
