#!/usr/bin/env node
// `npm test`: every check, in order: lint (with the engine purity rule), formatting, typecheck,
// unit tests, the mutation check, database tests and a production build, and e2e tests in Chromium.
// Ends with one line "N passed, N failed" summing the test runners' counts.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const RESULTS = path.join(ROOT, "test-results");
const bin = (name) => path.join(ROOT, "node_modules", ".bin", name);
mkdirSync(RESULTS, { recursive: true });

const only = process.argv.slice(2);
const counts = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
const started = Date.now();

const chosen = (name) => !only.length || only.includes(name);
const childEnv = (env = {}) => ({ ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env });

/**
 * Runs one step as a child process; resolves to true when it passed (or was not chosen).
 * A step that may run beside another chosen step (`company`) keeps its output until it
 * ends, so two steps' lines never interleave; one alone writes as it goes.
 */
function step(name, command, args, { env = {}, choice = name, company = [] } = {}) {
  if (!chosen(choice)) return Promise.resolve(true);
  const stepStarted = Date.now();
  const beside = company.filter((other) => other !== choice && chosen(other));
  const buffered = beside.length > 0;
  console.log(
    `\n▶ ${name}: ${[path.basename(command), ...args].join(" ")}${beside.length ? ` (beside ${beside.join(", ")})` : ""}`,
  );
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env: childEnv(env),
      stdio: buffered ? ["ignore", "pipe", "pipe"] : "inherit",
    });
    let output = "";
    if (buffered)
      for (const stream of [child.stdout, child.stderr])
        stream.on("data", (chunk) => (output += chunk));
    const end = (ok, extra = "") => {
      if (buffered && (output + extra).trim())
        process.stdout.write(`\n[${name}]\n${output}${extra}`);
      const seconds = (Date.now() - stepStarted) / 1000;
      console.log(
        `${ok ? "✔" : "✘"} ${name} (${seconds.toFixed(1)} s, at ${((Date.now() - started) / 1000).toFixed(0)} s)`,
      );
      if (!ok) failures.push(name);
      resolve(ok);
    };
    child.on("error", (error) => end(false, `${error.message}\n`));
    child.on("close", (code) => end(code === 0));
  });
}

function vitestCounts(file) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, "utf8"));
  counts.passed += report.numPassedTests ?? 0;
  counts.failed += report.numFailedTests ?? 0;
  counts.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}

function playwrightCounts(file) {
  if (!existsSync(file)) return;
  const { stats } = JSON.parse(readFileSync(file, "utf8"));
  counts.passed += (stats?.expected ?? 0) + (stats?.flaky ?? 0);
  counts.failed += stats?.unexpected ?? 0;
  counts.skipped += stats?.skipped ?? 0;
}

const vitestRun = (project) => [
  "run",
  "--project",
  project,
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${path.join(RESULTS, `${project}.json`)}`,
];

for (const f of ["unit.json", "db.json", "db-build.json", "e2e-report.json"])
  rmSync(path.join(RESULTS, f), { force: true });

// Lint, formatting and typecheck: three processes that together keep both cores busy.
const CHECKS = ["lint", "format", "typecheck"];
await Promise.all([
  step("lint", bin("eslint"), ["--max-warnings", "0", "."], { company: CHECKS }),
  step("format", bin("prettier"), ["--check", "--log-level", "warn", "."], { company: CHECKS }),
  step("typecheck", bin("tsc"), ["--noEmit"], { company: CHECKS }),
]);
const typechecked = chosen("typecheck") && !failures.includes("typecheck");

await step("unit", bin("vitest"), vitestRun("unit"));
vitestCounts(path.join(RESULTS, "unit.json"));
await step("mutation", process.execPath, [path.join(ROOT, "scripts", "mutation-check.mjs")]);

// The db tests and the build, together: the db tests wait on the database part of the time.
// (Every other step keeps both cores busy on its own: run beside one another, as the unit
// tests beside the e2e tests were, they took longer in all, 1,122 s against 1,059 s.)
const BUILD_PHASE = ["db", "build"];
const [, built] = await Promise.all([
  step("db", bin("vitest"), vitestRun("db"), { company: BUILD_PHASE }),
  // When the typecheck step passed on this tree, the build need not check it again.
  step("build", bin("next"), ["build"], {
    env: { CHARTER_BUILD_TYPECHECKED: typechecked ? "1" : "0" },
    company: BUILD_PHASE,
  }),
]);
vitestCounts(path.join(RESULTS, "db.json"));
if (built) {
  // The db tests that start `charter serve` on the production build (vitest.config.ts).
  await step("db-build", bin("vitest"), vitestRun("db-build"), { choice: "db" });
  vitestCounts(path.join(RESULTS, "db-build.json"));
  await step("e2e", bin("playwright"), ["test"]);
  playwrightCounts(path.join(RESULTS, "e2e-report.json"));
} else if (chosen("e2e") || chosen("db")) {
  console.log("\ndb-build and e2e skipped: the build failed");
}

console.log(`\n${failures.length ? `Failed steps: ${failures.join(", ")}` : "All steps passed."}`);
console.log(
  `${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ""} (${((Date.now() - started) / 1000).toFixed(0)} s)`,
);
process.exit(failures.length ? 1 : 0);
