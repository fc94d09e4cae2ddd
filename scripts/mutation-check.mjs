#!/usr/bin/env node
/**
 * Proves that the engine's tests pin the contracts' numbers (docs/spec/): each mutant
 * changes one seed constant or comparison, and some unit test must then fail.
 *
 * The working tree is never modified (others run tests from it): lib/, test/ and the
 * configs are copied once into a temporary directory per worker, with node_modules
 * symlinked; each mutant is applied there, only its unit test files run (in one Vitest
 * per copy, kept open), and the file is restored. Prints one line per mutant and
 * "N mutants, N caught"; exits 1 if any mutant survives, 2 if the unmutated tests fail or
 * a mutant's text is not found once.
 *
 *   node scripts/mutation-check.mjs [--only <substring of file or why>]
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir, availableParallelism } from "node:os";
import path from "node:path";
import { createVitest } from "vitest/node";

const ROOT = path.resolve(import.meta.dirname, "..");
const COPIED = ["lib", "test", "constitution", "vitest.config.ts", "tsconfig.json", "package.json"];

const REWARD = ["lib/reward/reward.test.ts"];
const FEEDBACK = ["lib/credit/feedback.test.ts"];
const TOOLS = ["lib/credit/tool-success.test.ts"];
const OUTCOME = ["lib/credit/outcome.test.ts"];
const PLAYBOOK = ["lib/playbook/playbook.test.ts"];
const CONFLICT = ["lib/constitution/conflict.test.ts"];
const PARSE = ["lib/constitution/parse.test.ts"];
const LEARN = ["lib/constitution/learn.test.ts"];

const R = "lib/reward/reward.ts";
const RS = "lib/reward/schema.ts";
const F = "lib/credit/feedback.ts";
const TS = "lib/credit/tool-success.ts";
const O = "lib/credit/outcome.ts";
const P = "lib/playbook/playbook.ts";
const PL = "lib/playbook/load.ts";
const CS = "lib/constitution/schema.ts";
const CC = "lib/constitution/conflict.ts";
const LN = "lib/constitution/learn.ts";

/**
 * [file, exact source text (must occur once), replacement, why, test files]. Boundary
 * comparisons whose mutant is equivalent are left out: `toolCount <= 5` vs `< 5` (at 5 the
 * formula gives 1.0 too) and `length >= 20` vs `> 20` (at 20, 0.5 + 20/20 x 0.5 = 1.0).
 */
const MUTANTS = [
  // Turn score (docs/spec/turn-score.md)
  [R, "noMutations: 1.0", "noMutations: 0.95", "ETHICAL no mutations 1.0", REWARD],
  [R, "acknowledged: 0.9", "acknowledged: 0.8", "ETHICAL acknowledged 0.9", REWARD],
  [R, "unacknowledged: 0.5", "unacknowledged: 0.6", "ETHICAL unacknowledged 0.5", REWARD],
  [R, "freeTools: 5", "freeTools: 6", "COMPOSABLE tool threshold 5", REWARD],
  [R, "freeTools: 5", "freeTools: 4", "COMPOSABLE tool threshold 5 (lower)", REWARD],
  [R, "penaltyPerTool: 0.1", "penaltyPerTool: 0.15", "COMPOSABLE slope 0.1", REWARD],
  [R, "floor: 0.5 }", "floor: 0.4 }", "COMPOSABLE floor 0.5", REWARD],
  [R, "goodLength: 20", "goodLength: 25", "JOY threshold 20 characters", REWARD],
  [R, "goodLength: 20", "goodLength: 19", "JOY threshold 20 characters (lower)", REWARD],
  [R, "empty: 0.3", "empty: 0.35", "JOY empty 0.3", REWARD],
  [R, "base: 0.5 }", "base: 0.6 }", "JOY base 0.5", REWARD],
  [R, "threshold: 0.9,", "threshold: 0.85,", "GENERATIVE threshold 0.9 (Charter)", REWARD],
  [R, "atFull: 0.5 }", "atFull: 0.4 }", "GENERATIVE at full 0.5 (Charter)", REWARD],
  [
    R,
    "this.scores[p] * (weights[p] ?? 1)",
    "this.scores[p] * (weights[p] ?? 1.1)",
    "missing weight is 1.0 (custom weights 10.0)",
    REWARD,
  ],
  [R, "round(scores[p] ?? 1)", "round(scores[p] ?? 0.9)", "missing score is 1.0", REWARD],
  [RS, "ethical: 2.0,", "ethical: 2.5,", "weight ETHICAL 2.0", REWARD],
  [RS, "composable: 1.5,", "composable: 1.2,", "weight COMPOSABLE 1.5", REWARD],
  [RS, "joy_inducing: 1.2,", "joy_inducing: 1.5,", "weight JOY_INDUCING 1.2", REWARD],
  [RS, "tasteful: 1.0,", "tasteful: 1.1,", "weight TASTEFUL 1.0", REWARD],
  [RS, "curated: 1.0,", "curated: 1.1,", "weight CURATED 1.0", REWARD],
  [RS, "heterarchical: 1.0,", "heterarchical: 1.1,", "weight HETERARCHICAL 1.0", REWARD],
  [RS, "generative: 1.0,", "generative: 1.1,", "weight GENERATIVE 1.0", REWARD],
  [
    RS,
    "ethical: 2.0,\n  composable: 1.5,",
    "ethical: 1.5,\n  composable: 2.0,",
    "weights ETHICAL/COMPOSABLE swapped",
    REWARD,
  ],

  // Credit assignment (docs/spec/credit-assignment.md)
  [
    F,
    "explicit_positive: { sentiment: 1.0, confidence: 0.9 }",
    "explicit_positive: { sentiment: 0.8, confidence: 0.6 }",
    "explicit positive {1.0, 0.9} -> {0.8, 0.6} (the review's case)",
    FEEDBACK,
  ],
  [
    F,
    "explicit_positive: { sentiment: 1.0,",
    "explicit_positive: { sentiment: 0.9,",
    "explicit positive sentiment 1.0",
    FEEDBACK,
  ],
  [
    F,
    "explicit_negative: { sentiment: 0.0,",
    "explicit_negative: { sentiment: 0.1,",
    "explicit negative sentiment 0.0",
    FEEDBACK,
  ],
  [
    F,
    "explicit_negative: { sentiment: 0.0, confidence: 0.9 }",
    "explicit_negative: { sentiment: 0.0, confidence: 0.8 }",
    "explicit negative confidence 0.9",
    FEEDBACK,
  ],
  [
    F,
    "implicit_retry: { sentiment: 0.2,",
    "implicit_retry: { sentiment: 0.3,",
    "retry sentiment 0.2",
    FEEDBACK,
  ],
  [F, "confidence: 0.7 }", "confidence: 0.8 }", "retry confidence 0.7", FEEDBACK],
  [
    F,
    "implicit_continuation: { sentiment: 0.7,",
    "implicit_continuation: { sentiment: 0.8,",
    "continuation sentiment 0.7",
    FEEDBACK,
  ],
  [F, "confidence: 0.6 }", "confidence: 0.5 }", "continuation confidence 0.6", FEEDBACK],
  [
    F,
    "neutral: { sentiment: 0.5,",
    "neutral: { sentiment: 0.6,",
    "neutral sentiment 0.5",
    FEEDBACK,
  ],
  [
    F,
    "neutral: { sentiment: 0.5, confidence: 0.5 }",
    "neutral: { sentiment: 0.5, confidence: 0.4 }",
    "neutral confidence 0.5",
    FEEDBACK,
  ],
  [F, "RETRY_OVERLAP = 0.6", "RETRY_OVERLAP = 0.5", "retry overlap > 0.6", FEEDBACK],
  [
    F,
    "CONTINUATION_OVERLAP = 0.2",
    "CONTINUATION_OVERLAP = 0.25",
    "continuation overlap < 0.2",
    FEEDBACK,
  ],
  [
    F,
    "similarity > RETRY_OVERLAP",
    "similarity >= RETRY_OVERLAP",
    "retry is strictly above",
    FEEDBACK,
  ],
  [
    F,
    "similarity < CONTINUATION_OVERLAP",
    "similarity <= CONTINUATION_OVERLAP",
    "continuation is strictly below",
    FEEDBACK,
  ],
  [F, "w.length > 3", "w.length > 2", "keywords longer than 3 characters", FEEDBACK],
  [
    TS,
    "/error|failed|exception|denied/i",
    "/error|failed|exception/i",
    "tool failure words include denied",
    TOOLS,
  ],
  [
    TS,
    "/error|failed|exception|denied/i",
    "/error|failed|denied/i",
    "tool failure words include exception",
    TOOLS,
  ],
  [TS, "/exit code: [1-9]/i", "/exit code: [2-9]/i", "Bash exit code 1-9 fails", TOOLS],
  [TS, 'toolName === "Bash"', 'toolName !== "Bash"', "exit codes only for Bash", TOOLS],
  [
    O,
    "ERROR_COUNT_PATTERN = /error|failed/i",
    "ERROR_COUNT_PATTERN = /error/i",
    "error count words",
    OUTCOME,
  ],
  [O, '"Write", "NotebookEdit"]', '"Write"]', "edit tools include NotebookEdit", OUTCOME],
  [O, "tool_success: 0.25,", "tool_success: 0.3,", "outcome weight tool_success 0.25", OUTCOME],
  [
    O,
    "user_sentiment: 0.35,",
    "user_sentiment: 0.3,",
    "outcome weight user_sentiment 0.35",
    OUTCOME,
  ],
  [O, "made_edits: 0.2,", "made_edits: 0.25,", "outcome weight made_edits 0.2", OUTCOME],
  [O, "no_errors: 0.2,", "no_errors: 0.15,", "outcome weight no_errors 0.2", OUTCOME],
  [O, "success: 0.65", "success: 0.6", "status success at 0.65", OUTCOME],
  [O, "failure: 0.35", "failure: 0.4", "status failure at 0.35", OUTCOME],
  [
    O,
    "score >= OUTCOME_THRESHOLDS.success",
    "score > OUTCOME_THRESHOLDS.success",
    "success is >= 0.65",
    OUTCOME,
  ],
  [
    O,
    "score <= OUTCOME_THRESHOLDS.failure",
    "score < OUTCOME_THRESHOLDS.failure",
    "failure is <= 0.35",
    OUTCOME,
  ],
  [O, "made: 0.8,", "made: 0.7,", "edits made 0.8", OUTCOME],
  [O, "none: 0.3 }", "none: 0.4 }", "no edits 0.3", OUTCOME],
  [O, "ERROR_PENALTY = 0.2", "ERROR_PENALTY = 0.25", "error penalty 0.2", OUTCOME],
  [
    O,
    "outcome: 0.6, tools: 0.4,",
    "outcome: 0.4, tools: 0.6,",
    "credit blend 0.6/0.4 swapped (the review's case)",
    OUTCOME,
  ],
  [
    O,
    "credit: 0.7, sentiment: 0.3 }",
    "credit: 0.3, sentiment: 0.7 }",
    "credit blend 0.7/0.3 swapped (the review's case)",
    OUTCOME,
  ],
  [O, "outcome: 0.6,", "outcome: 0.5,", "credit blend outcome 0.6", OUTCOME],
  [O, "tools: 0.4,", "tools: 0.5,", "credit blend tools 0.4", OUTCOME],
  [O, "credit: 0.7,", "credit: 0.6,", "credit blend credit 0.7", OUTCOME],
  [O, "sentiment: 0.3 }", "sentiment: 0.4 }", "credit blend sentiment 0.3", OUTCOME],
  [O, "Math.max(0, Math.min(1, credit))", "Math.min(1, credit)", "credit clamped at 0", OUTCOME],
  [O, "Math.max(0, Math.min(1, credit))", "Math.max(0, credit)", "credit clamped at 1", OUTCOME],
  [
    O,
    "mean(state.userFeedback.map((f) => f.sentiment)) : 0.5",
    "mean(state.userFeedback.map((f) => f.sentiment)) : 0.6",
    "avg sentiment without feedback 0.5",
    OUTCOME,
  ],
  [O, "calls.length : 1,", "calls.length : 0.9,", "tool success rate without calls 1", OUTCOME],

  // Playbook (docs/spec/playbook.md)
  [P, "PRUNE_HARMFUL_FLOOR = 3", "PRUNE_HARMFUL_FLOOR = 2", "prune floor 3 (lower)", PLAYBOOK],
  [P, "PRUNE_HARMFUL_FLOOR = 3", "PRUNE_HARMFUL_FLOOR = 4", "prune floor 3 (higher)", PLAYBOOK],
  [
    P,
    "entry.harmful >= PRUNE_HARMFUL_FLOOR",
    "entry.harmful > PRUNE_HARMFUL_FLOOR",
    "prune floor comparison >=",
    PLAYBOOK,
  ],
  [
    P,
    "entry.harmful > entry.helpful",
    "entry.harmful >= entry.helpful",
    "prune needs a strict harmful majority",
    PLAYBOOK,
  ],
  [
    P,
    "`[${k.name}] helpful=${k.helpful} harmful=${k.harmful} :: ${k.text}`",
    "`[${k.name}] helpful=${k.helpful} harmful=${k.harmful}: ${k.text}`",
    "format string delimiter ::",
    PLAYBOOK,
  ],
  [
    PL,
    "helpful: Math.max(score, 0), harmful: Math.max(-score, 0)",
    "helpful: Math.max(score, 0), harmful: Math.max(score, 0)",
    "migration harmful = max(-score, 0)",
    PLAYBOOK,
  ],
  [
    PL,
    "helpful: Math.max(score, 0), harmful: Math.max(-score, 0)",
    "helpful: Math.abs(score), harmful: Math.max(-score, 0)",
    "migration helpful = max(score, 0)",
    PLAYBOOK,
  ],

  // Trust ratios (docs/principles.md): the Wilson lower bound at 95%
  [O, "const z = 1.96;", "const z = 1.645;", "trust lower bound z = 1.96 (95%)", OUTCOME],

  // The audit log's hash chain (docs/security.md)
  [
    "lib/db/audit-chain.ts",
    "else if (row.prevHash !== GENESIS_HASH)",
    "else if (false && row.prevHash !== GENESIS_HASH)",
    "audit chain: the first row must start from the genesis hash",
    ["lib/db/audit-chain.test.ts"],
  ],

  // Constitution store (docs/spec/constitution-store.md)
  [CS, "PRIORITY_MAX = 100", "PRIORITY_MAX = 99", "priorities run 1-100 (max)", PARSE],
  [CS, "PRIORITY_MIN = 1", "PRIORITY_MIN = 0", "priorities run 1-100 (min)", PARSE],
  [CC, "{ hard: 0, soft: 1 }", "{ hard: 1, soft: 0 }", "hard constraint beats soft norm", CONFLICT],
  [CC, "b.priority - a.priority", "a.priority - b.priority", "higher priority prevails", CONFLICT],
  [
    CC,
    "(a.id < b.id ? -1 : a.id > b.id ? 1 : 0)",
    "(a.id < b.id ? 1 : a.id > b.id ? -1 : 0)",
    "id ascending breaks ties",
    CONFLICT,
  ],
  // Learned term weights (docs/retrieval.md#learned-term-weights)
  [LN, "l2: 2,", "l2: 1,", "learned weights: L2 penalty 2", LEARN],
  [
    LN,
    "domain_positive_weight: 8,",
    "domain_positive_weight: 4,",
    "learned: domain positives weigh 8",
    LEARN,
  ],
  [
    LN,
    "principle_positive_weight: 1,",
    "principle_positive_weight: 2,",
    "learned: principle positives weigh 1",
    LEARN,
  ],
  [LN, "forbid_weight: 4,", "forbid_weight: 2,", "learned: a forbid label weighs 4", LEARN],
  [LN, "min_weight: 0.01,", "min_weight: 1e-4,", "learned: weights under 0.01 left out", LEARN],
  [
    LN,
    "everyday_l2_factor: 2,",
    "everyday_l2_factor: 1,",
    "learned: everyday words penalised twice",
    LEARN,
  ],
  [LN, "OFFSET_CLAMP = 0.02", "OFFSET_CLAMP = 0.05", "learned: offsets clamped at 0.02", LEARN],
  [
    LN,
    "out.add(`${sequence[i - 1]} ${sequence[i]}`)",
    "void 0",
    "learned: stem pairs are features",
    LEARN,
  ],
  [
    LN,
    "if (o.bias) bias = step(all, bias);",
    "bias = step(all, bias);",
    "learned: no bias of its own",
    LEARN,
  ],
];

const only = process.argv.includes("--only")
  ? process.argv[process.argv.indexOf("--only") + 1]
  : undefined;
const selected = MUTANTS.filter(
  ([file, , , why]) => !only || file.includes(only) || why.includes(only),
);

function makeCopy() {
  const dir = mkdtempSync(path.join(tmpdir(), "charter-mutation-"));
  for (const entry of COPIED)
    cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  return dir;
}

/**
 * One Vitest per copy, kept open for all its mutants: a mutant's run re-transforms only
 * the file it changed (`invalidateFile`) and runs its test files in fresh workers, about a
 * third of the time of starting Vitest anew for each mutant.
 */
async function openRunner(dir) {
  const vitest = await createVitest("test", {
    root: dir,
    watch: false,
    project: ["unit"],
    // Results are read from the run's modules, not printed.
    reporters: [{}],
  });
  await vitest.standalone();
  return {
    dir,
    /** Runs the unit test files; resolves to the names of the failing tests (empty when green). */
    async run(files) {
      const paths = files.map((file) => path.join(dir, file));
      const result = await vitest.runTestFiles(paths);
      // The result also lists modules of earlier runs: only this run's files count.
      const modules = result.testModules.filter((module) => paths.includes(module.moduleId));
      if (modules.length !== paths.length)
        return [`ran ${modules.length} of ${paths.length} files`];
      const failed = modules.flatMap((module) => {
        const file = path.relative(dir, module.moduleId);
        const tests = [...module.children.allTests()]
          .filter((test) => test.result().state === "failed")
          .map((test) => `${file} > ${test.fullName}`);
        const [error] = module.errors();
        return tests.length || !error ? tests : [`${file} (suite failed: ${error.message})`];
      });
      return failed.length || !result.unhandledErrors.length
        ? failed
        : [`unhandled error: ${result.unhandledErrors[0]?.message ?? result.unhandledErrors[0]}`];
    },
    invalidate: (file) => vitest.invalidateFile(path.join(dir, file)),
    close: () => vitest.close(),
  };
}

const started = Date.now();
const workers = Math.max(1, Math.min(2, availableParallelism()));
const copies = Array.from({ length: workers }, makeCopy);
const runners = [];
let exitCode = 0;
try {
  for (const dir of copies) runners.push(await openRunner(dir));
  // The unmutated tests must pass, and each mutant's text must be found exactly once.
  const allFiles = [...new Set(selected.flatMap((m) => m[4]))];
  const baseline = await runners[0].run(allFiles);
  if (baseline.length) {
    console.error(
      `The unmutated tests fail, so mutants prove nothing:\n  ${baseline.join("\n  ")}`,
    );
    process.exit(2);
  }
  for (const [file, from, , why] of selected) {
    const count = readFileSync(path.join(ROOT, file), "utf8").split(from).length - 1;
    if (count !== 1) {
      console.error(`${file}: ${JSON.stringify(from)} (${why}) occurs ${count} times, not once`);
      exitCode = 2;
    }
  }
  if (exitCode) process.exit(exitCode);

  const results = new Array(selected.length);
  let next = 0;
  await Promise.all(
    runners.map(async (runner) => {
      while (next < selected.length) {
        const i = next++;
        const [file, from, to, , tests] = selected[i];
        const target = path.join(runner.dir, file);
        const original = readFileSync(target, "utf8");
        writeFileSync(target, original.replace(from, to));
        runner.invalidate(file);
        try {
          results[i] = await runner.run(tests);
        } finally {
          writeFileSync(target, original);
          runner.invalidate(file);
        }
      }
    }),
  );

  let caught = 0;
  selected.forEach(([file, from, to, why], i) => {
    const failed = results[i];
    const change = `${JSON.stringify(from)} -> ${JSON.stringify(to)}`;
    if (failed.length) {
      caught++;
      const more = failed.length > 1 ? ` (+${failed.length - 1} more)` : "";
      console.log(`caught    ${file}: ${why}: ${change}, by ${failed[0]}${more}`);
    } else {
      console.log(`SURVIVED  ${file}: ${why}: ${change}`);
    }
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`${selected.length} mutants, ${caught} caught (${seconds} s)`);
  if (caught < selected.length) exitCode = 1;
} finally {
  await Promise.all(runners.map((runner) => runner.close()));
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);
