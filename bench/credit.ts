/**
 * Credit assignment time (the credit-assignment spec) for a session of 500 tool calls and 50 injected
 * principles, each call active for a random 5-20 of them (fixed seed), as a ratio to
 * computing the outcome signals alone on the same session in the same run.
 * Run: npx tsx bench/credit.ts
 */
import {
  analyzeUserFeedback,
  assignCredit,
  calculatePrincipleCredits,
  computeOutcomeSignals,
  inferEnrichedOutcome,
  sessionStateSchema,
} from "@/lib/credit";
import { determineToolSuccess } from "@/lib/credit/tool-success";
import { random } from "./support/random";
import { median } from "./support/stats";

const CALLS = 500;
const PRINCIPLES = 50;
const ACTIVE = { min: 5, max: 20 };
const PROMPTS = 25;
const RUNS = 15;
const ITERATIONS = 200;

const rand = random(3);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
const ids = Array.from({ length: PRINCIPLES }, (_, i) => `P${String(i + 1).padStart(2, "0")}`);
const tools = ["Read", "Grep", "Bash", "Edit", "Write", "NotebookEdit"] as const;
const outputs = [
  "ok",
  "export const x = 1;",
  "Error: ENOENT",
  "exit code: 1",
  "Build failed",
  "exit code: 0",
  "NullPointerException",
];
const prompts = Array.from({ length: PROMPTS }, (_, i) =>
  pick([
    "refactor the login handler",
    "thanks",
    "that's wrong",
    `write notes for release ${i}`,
    "refactor login handler again",
  ]),
);

function activeSubset(): string[] {
  const size = ACTIVE.min + Math.floor(rand() * (ACTIVE.max - ACTIVE.min + 1));
  const shuffled = [...ids];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
  }
  return shuffled.slice(0, size);
}

const state = sessionStateSchema.parse({
  sessionId: "bench",
  prompts,
  injectedPrinciples: ids,
  toolCalls: Array.from({ length: CALLS }, (_, i) => {
    const tool = pick(tools);
    const output = rand() < 0.5 ? pick(outputs) : { stdout: pick(outputs), stderr: "" };
    return {
      tool,
      input: { file_path: `src/file-${i % 40}.ts` },
      output,
      succeeded: determineToolSuccess(tool, output),
      active_principles: activeSubset(),
      prompt_index: Math.floor((i * PROMPTS) / CALLS),
    };
  }),
  userFeedback: prompts.map((p, i) => analyzeUserFeedback(p, prompts.slice(0, i), [{}])),
});

/** Microseconds per call over ITERATIONS calls. */
function sample(run: () => unknown): number {
  const started = performance.now();
  for (let i = 0; i < ITERATIONS; i++) run();
  return ((performance.now() - started) * 1000) / ITERATIONS;
}

const outcome = inferEnrichedOutcome(state);
const subjects = {
  signals: () => computeOutcomeSignals(state),
  creditsOnly: () => calculatePrincipleCredits(state, outcome),
  assign: () => assignCredit(state),
};
for (const run of Object.values(subjects)) sample(run); // warm-up
// Round-robin so that drift in machine load hits every subject alike; ratios are taken within each run.
const runs = Array.from(
  { length: RUNS },
  () =>
    Object.fromEntries(
      Object.entries(subjects).map(([name, run]) => [name, sample(run)]),
    ) as Record<keyof typeof subjects, number>,
);
const us = (name: keyof typeof subjects) => median(runs.map((r) => r[name]));
const ratio = (name: keyof typeof subjects) => median(runs.map((r) => r[name] / r.signals));

const activeLinks = state.toolCalls.reduce((n, c) => n + (c.active_principles?.length ?? 0), 0);
console.log(
  `${CALLS} tool calls, ${PRINCIPLES} injected principles, ${activeLinks} call-principle links (median of ${RUNS} runs of ${ITERATIONS} calls)`,
);
console.log(`computeOutcomeSignals      ${us("signals").toFixed(1)} µs`);
console.log(`calculatePrincipleCredits  ${us("creditsOnly").toFixed(1)} µs`);
console.log(`assignCredit (all of it)   ${us("assign").toFixed(1)} µs`);
console.log(`ratio assignCredit/signals: ${ratio("assign").toFixed(2)}`);
console.log(`ratio credits only/signals: ${ratio("creditsOnly").toFixed(2)}`);
