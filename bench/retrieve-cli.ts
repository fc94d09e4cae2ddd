/**
 * `charter retrieve "<prompt>"` on the embedded database (PGlite, the default without
 * DATABASE_URL), run the way an agent runs it: from a temporary directory outside the
 * repository, through bin/charter.mjs, on a data directory of its own. The median wall time
 * of ROUNDS runs of each case, as a ratio to `node -e 0` measured in the same run,
 * interleaved so that load on the machine weighs on every case alike; the load average is
 * printed before and after. The cases: the head file answering (the usual call), the same
 * with --json, and the head file removed before each run, so that the command opens PGlite
 * (what every call cost before the head file, and what a call costs after a save made by
 * a process that crashed before writing it). The database is created, migrated and loaded
 * with the shipped constitution once before timing. Builds dist/ first, so the bundle is
 * current. Run: npx tsx bench/retrieve-cli.ts [rounds]
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { HEAD_FILE } from "@/lib/files/head-file";
import { lexicalCliEnv } from "@/test/cli-bundle";
import { loadAverage as load, median } from "./support/stats";

const ROOT = path.resolve(import.meta.dirname, "..");
const BIN = path.join(ROOT, "bin", "charter.mjs");
const ROUNDS = Number(process.argv[2] ?? 9);
const GOAL = 4;
const PROMPT = "drop the users table in production and rebuild it from the backup";

type Case = { name: string; args: string[]; before?: () => void; goal?: number };

const cwd = mkdtempSync(path.join(os.tmpdir(), "charter-bench-retrieve-"));
const dataDir = path.join(cwd, "data");
const headFile = path.join(dataDir, "pglite", HEAD_FILE);

const CASES: Case[] = [
  { name: "node -e 0", args: ["-e", "0"] },
  { name: `charter retrieve "…"`, args: [BIN, "retrieve", PROMPT], goal: GOAL },
  { name: `charter retrieve "…" --json`, args: [BIN, "retrieve", PROMPT, "--json"], goal: GOAL },
  {
    name: "… without the head file",
    args: [BIN, "retrieve", PROMPT],
    before: () => rmSync(headFile, { force: true }),
  },
];

function runOnce(c: Case, env: NodeJS.ProcessEnv): number {
  c.before?.();
  const started = performance.now();
  const result = spawnSync(process.execPath, c.args, { cwd, env, encoding: "utf8" });
  const elapsed = performance.now() - started;
  if (result.status !== 0)
    throw new Error(`${c.name} exited ${result.status}: ${result.stderr.trim().split("\n")[0]}`);
  return elapsed;
}

const build = spawnSync(process.execPath, [path.join(ROOT, "scripts", "build-cli.mjs")], {
  stdio: "inherit",
});
if (build.status !== 0) throw new Error("scripts/build-cli.mjs failed");

const env = lexicalCliEnv(dataDir);
try {
  runOnce(CASES[1]!, env); // a new database: migrations and the shipped constitution, once
  runOnce(CASES[1]!, env); // the version's parse and index, cached for this engine build
  const loadBefore = load();
  const times = new Map<string, number[]>(CASES.map((c) => [c.name, []]));
  for (let round = 0; round < ROUNDS; round++)
    for (const c of CASES) times.get(c.name)!.push(runOnce(c, env));
  const baseline = median(times.get(CASES[0]!.name)!);
  console.log(
    `${ROUNDS} runs each from ${cwd}, embedded database; load average ${loadBefore} before, ${load()} after; median wall time:`,
  );
  for (const c of CASES) {
    const ms = median(times.get(c.name)!);
    const ratio = ms / baseline;
    const verdict =
      c.name === CASES[0]!.name
        ? "baseline"
        : c.goal === undefined
          ? ""
          : `goal <= ${c.goal}x: ${ratio <= c.goal ? "met" : "MISSED"}`;
    console.log(
      `  ${c.name.padEnd(30)} ${ms.toFixed(0).padStart(6)} ms  ${ratio.toFixed(2).padStart(6)}x  ${verdict}`,
    );
  }
} finally {
  rmSync(cwd, { recursive: true, force: true });
}
