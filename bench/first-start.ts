/**
 * First start and restart of `charter serve`, as a new user meets them: no build, a new
 * embedded database, then the same again with the build in place. Each is the wall time
 * from the command to the first 200 from /api/health, beside the build's own share and
 * the lines of progress it printed. Builds into its own directory (CHARTER_NEXT_DIST_DIR)
 * and data directory, so an existing build is neither used nor touched (tsconfig.json,
 * which `next build` extends with that directory, is restored).
 * Goals (issue 14): first start <= 150 s with progress every few seconds; restart <= 10 s.
 * Run: npx tsx bench/first-start.ts [port]
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { BIN, ROOT, waitHealthy } from "./support/server";

const PORT = Number(process.argv[2] ?? 3777);
const DIST = `.next-bench-${process.pid}`;
const DATA = mkdtempSync(path.join(os.tmpdir(), "charter-first-start-"));
// `next build` adds a build directory other than .next to tsconfig.json's include list: put it back after.
const TSCONFIG = path.join(ROOT, "tsconfig.json");
const tsconfig = readFileSync(TSCONFIG, "utf8");

async function start(label: string, goalSeconds: number): Promise<void> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CHARTER_NEXT_DIST_DIR: DIST,
    CHARTER_DATA_DIR: DATA,
    NEXT_TELEMETRY_DISABLED: "1",
  };
  delete env.DATABASE_URL;
  const started = Date.now();
  const child = spawn(process.execPath, [BIN, "serve", "--port", String(PORT)], {
    cwd: os.tmpdir(),
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<never>((_, reject) =>
    child.once("exit", (code) => reject(new Error(`charter serve exited (${code}):\n${output}`))),
  );
  exited.catch(() => undefined); // once healthy, the exit that SIGINT causes below is expected
  await Promise.race([waitHealthy(`http://127.0.0.1:${PORT}`), exited]);
  const seconds = (Date.now() - started) / 1000;
  const progress = output
    .split("\n")
    .filter((line) => line.startsWith("charter: still building")).length;
  const built = /charter: built in (\d+) s/.exec(output)?.[1];
  const verdict = seconds <= goalSeconds ? "met" : "MISSED";
  console.log(
    `  ${label.padEnd(14)} ${seconds.toFixed(1).padStart(6)} s   goal <= ${goalSeconds} s: ${verdict}${built ? `   (build ${built} s, ${progress} progress lines)` : ""}`,
  );
  child.kill("SIGINT");
  await new Promise((resolve) => child.once("close", resolve));
}

try {
  console.log(`charter serve from nothing, embedded database, port ${PORT}:`);
  await start("first start", 150);
  await start("restart", 10);
} finally {
  writeFileSync(TSCONFIG, tsconfig);
  rmSync(path.join(ROOT, DIST), { recursive: true, force: true });
  rmSync(DATA, { recursive: true, force: true });
}
