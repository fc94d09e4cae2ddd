#!/usr/bin/env node
// `npm test`: every check, in order: lint (with the engine purity rule), formatting, typecheck,
// unit tests, database tests, a production build, and e2e tests in Chromium.
// Ends with one line "N passed, N failed" summing the test runners' counts.
import { spawn, spawnSync } from "node:child_process";
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

const chosen = (name) => !only.length || only.includes(name);
const announce = (name, command, args, note = "") =>
  console.log(`\n▶ ${name}: ${[path.basename(command), ...args].join(" ")}${note}`);
const childEnv = (env = {}) => ({ ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env });

/** Prints a step's outcome and remembers a failure. */
function report(name, ok, seconds) {
  console.log(`${ok ? "✔" : "✘"} ${name} (${seconds.toFixed(1)} s)`);
  if (!ok) failures.push(name);
  return ok;
}

function step(name, command, args, env = {}, choice = name) {
  if (!chosen(choice)) return true;
  const started = Date.now();
  announce(name, command, args);
  const result = spawnSync(command, args, { cwd: ROOT, stdio: "inherit", env: childEnv(env) });
  return report(name, result.status === 0, (Date.now() - started) / 1000);
}

/**
 * Steps that share nothing run at once (lint and typecheck, one core each; the db tests,
 * which mostly wait, and the build); each one's output is printed whole when it ends, so
 * they never interleave.
 */
async function concurrentSteps(list) {
  const picked = list.filter(([name]) => chosen(name));
  const runs = picked.map(([name, command, args, env]) => {
    const started = Date.now();
    announce(
      name,
      command,
      args,
      ` (alongside ${picked
        .filter(([other]) => other !== name)
        .map(([other]) => other)
        .join(", ")})`,
    );
    return new Promise((resolve) => {
      const child = spawn(command, args, { cwd: ROOT, env: childEnv(env) });
      let output = "";
      child.stdout.on("data", (chunk) => (output += chunk));
      child.stderr.on("data", (chunk) => (output += chunk));
      child.on("error", (error) =>
        resolve({
          name,
          ok: false,
          output: `${output}${error.message}\n`,
          seconds: (Date.now() - started) / 1000,
        }),
      );
      child.on("close", (code) =>
        resolve({ name, ok: code === 0, output, seconds: (Date.now() - started) / 1000 }),
      );
    });
  });
  for (const { name, ok, output, seconds } of await Promise.all(runs)) {
    if (output.trim()) process.stdout.write(`\n[${name}]\n${output}`);
    report(name, ok, seconds);
  }
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

for (const f of ["unit.json", "db.json", "db-build.json", "e2e-report.json"])
  rmSync(path.join(RESULTS, f), { force: true });

await concurrentSteps([
  ["lint", bin("eslint"), ["--max-warnings", "0", "."]],
  ["format", bin("prettier"), ["--check", "--log-level", "warn", "."]],
  ["typecheck", bin("tsc"), ["--noEmit"]],
]);
const typechecked = chosen("typecheck") && !failures.includes("typecheck");
step("unit", bin("vitest"), [
  "run",
  "--project",
  "unit",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${path.join(RESULTS, "unit.json")}`,
]);
vitestCounts(path.join(RESULTS, "unit.json"));
step("mutation", process.execPath, [path.join(ROOT, "scripts", "mutation-check.mjs")]);
const dbRun = (project) => [
  "run",
  "--project",
  project,
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${path.join(RESULTS, `${project}.json`)}`,
];
// The db tests mostly wait on the database; the build keeps both cores busy. Run together,
// they take little longer than the db tests alone.
await concurrentSteps([
  ["db", bin("vitest"), dbRun("db")],
  // When the typecheck step passed on this tree, the build need not check it again.
  ["build", bin("next"), ["build"], { CHARTER_BUILD_TYPECHECKED: typechecked ? "1" : "0" }],
]);
vitestCounts(path.join(RESULTS, "db.json"));
if (!failures.includes("build")) {
  // The db tests that start `charter serve` on the production build (vitest.config.ts).
  step("db-build", bin("vitest"), dbRun("db-build"), {}, "db");
  vitestCounts(path.join(RESULTS, "db-build.json"));
  step("e2e", bin("playwright"), ["test"]);
  playwrightCounts(path.join(RESULTS, "e2e-report.json"));
} else if (chosen("e2e")) {
  console.log("e2e skipped: the build failed");
}

console.log(`\n${failures.length ? `Failed steps: ${failures.join(", ")}` : "All steps passed."}`);
console.log(
  `${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ""}`,
);
process.exit(failures.length ? 1 : 0);
