/**
 * Issue 24's figures for the learned term weights, in one run:
 *  - the shipped eval set on the keywords alone and 5-fold cross-validated with the
 *    learned weights; the held-out set (never trained on) on both; crisis cases alone;
 *  - overlay precision (of the overlay principles injected on prompts with domains, the
 *    share that belongs to an expected overlay) and the own match of every hard
 *    principle injected without a detected domain carrying it;
 *  - retrieval p50/p99 with the learned model, as a ratio to the keywords alone;
 *  - the fit of 1,000 labelled prompts, as a ratio to one keyword-only eval run of them.
 * Run: npx tsx bench/retrieval-learning.ts [--holdout file]
 */
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import {
  ConstitutionStore,
  crossValidate,
  evalLexical,
  fitLearned,
  parseConstitution,
  principleOwners,
  type CaseResult,
  type EvalCase,
  type EvalMetrics,
  type EvalReport,
  type EvalSet,
} from "@/lib/constitution";
import { loadConstitution, SHIPPED_CONSTITUTION_DIR } from "@/lib/files/constitution";

const holdoutArg = process.argv.indexOf("--holdout");
const HOLDOUT =
  holdoutArg > 0
    ? path.resolve(process.argv[holdoutArg + 1]!)
    : path.join(process.cwd(), "test/fixtures/retrieval-holdout.yaml");
const CRISIS_FILE = "eval/crisis.yaml";

const loaded = await loadConstitution(SHIPPED_CONSTITUTION_DIR);
if (!loaded.ok) throw new Error("the shipped constitution does not load");
const { constitution, evals } = loaded;
const holdout = (() => {
  const parsed = parseConstitution([
    ...loaded.files.filter((f) => !f.path.startsWith("eval/")),
    { path: "eval/holdout.yaml", text: readFileSync(HOLDOUT, "utf8") },
  ]);
  if (!parsed.ok) throw new Error(`${HOLDOUT} is not a valid eval file`);
  return parsed.evals;
})();

const keywords = new ConstitutionStore(constitution);
const index = keywords.index;
const cv = await crossValidate(constitution, evals, { index });
const learned = new ConstitutionStore(constitution, {}, { index, learned: cv.model });

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(3));
const row = (label: string, m: EvalMetrics) =>
  `  ${label.padEnd(34)} recall@1 ${fmt(m.domain_recall_at_1)}  recall@3 ${fmt(m.domain_recall_at_3)}  hit ${fmt(m.principle_hit_rate)}  false inj ${fmt(m.false_injection_rate)}  trap ${fmt(m.trap_rate)}  mean ${fmt(m.mean_principles)}`;

const owners = principleOwners(constitution);
/** Of the overlay principles injected on prompts with domains, the share from an expected overlay. */
function overlayPrecision(report: EvalReport): string {
  let injected = 0;
  let expected = 0;
  for (const c of report.cases) {
    if (c.expected_domains.length === 0) continue;
    for (const id of c.principles) {
      const overlays = owners.get(id);
      if (!overlays || overlays.size === 0) continue;
      injected += 1;
      if (c.expected_domains.some((d) => overlays.has(d))) expected += 1;
    }
  }
  return `${fmt(injected ? expected / injected : 1)} (${expected} of ${injected})`;
}
const crisis = (set: EvalSet): EvalSet => ({
  cases: set.cases.filter((c) => c.file === CRISIS_FILE),
  thresholds: {},
});
function hitRate(results: readonly CaseResult[]): string {
  const measured = results.filter((r) => r.principle_hit !== null);
  const hits = measured.filter((r) => r.principle_hit).length;
  return `${fmt(measured.length ? hits / measured.length : 1)} (${hits} of ${measured.length})`;
}

const kwReport = await evalLexical(keywords, evals);
const holdoutKw = await evalLexical(keywords, holdout);
const holdoutLearned = await evalLexical(learned, holdout);
console.log(
  `eval: ${evals.cases.length} shipped cases, ${holdout.cases.length} held-out; ${Object.keys(cv.model.domains).length} domain and ${Object.keys(cv.model.principles).length} principle models; load average ${loadavg()[0]!.toFixed(2)}`,
);
console.log(row("shipped, keywords alone", kwReport.metrics));
console.log(row(`shipped, learned (${cv.folds}-fold cross-validated)`, cv.report.metrics));
console.log(row("held-out, keywords alone", holdoutKw.metrics));
console.log(row("held-out, learned (fitted on shipped)", holdoutLearned.metrics));
const crisisCases = new Set(crisis(evals).cases.map((c) => c.prompt));
if (crisisCases.size) {
  const pick = (r: EvalReport) => r.cases.filter((c) => crisisCases.has(c.prompt));
  console.log(
    `  crisis cases (${CRISIS_FILE}): hit rate keywords ${hitRate(pick(kwReport))}, learned cross-validated ${hitRate(pick(cv.report))}`,
  );
}
console.log(
  `  overlay precision on domain prompts: shipped keywords ${overlayPrecision(kwReport)}, cross-validated ${overlayPrecision(cv.report)}; held-out keywords ${overlayPrecision(holdoutKw)}, learned ${overlayPrecision(holdoutLearned)}`,
);

// Hard principles injected on their own match (keywords alone), with no detected domain carrying them.
const strengths: number[] = [];
for (const c of [...evals.cases, ...holdout.cases]) {
  for (const p of keywords.retrieveLexical(c.prompt).principles)
    if (p.level === "hard" && p.why.via === "prompt" && p.overlay === null)
      strengths.push(p.confidence);
}
strengths.sort((a, b) => a - b);
console.log(
  `  hard core principles injected on their own match: ${strengths.length}; own match min ${fmt(strengths[0] ?? 0)}, p10 ${fmt(strengths[Math.floor(strengths.length / 10)] ?? 0)}, median ${fmt(strengths[Math.floor(strengths.length / 2)] ?? 0)}`,
);

// Latency: every shipped and held-out prompt, several rounds, learned against keywords alone.
const prompts = [...evals.cases, ...holdout.cases].map((c) => c.prompt);
function latency(store: ConstitutionStore): { p50: number; p99: number } {
  const times: number[] = [];
  for (let round = 0; round < 5; round++)
    for (const prompt of prompts) {
      const started = performance.now();
      store.retrieveLexical(prompt);
      times.push(performance.now() - started);
    }
  times.sort((a, b) => a - b);
  return {
    p50: times[Math.floor(times.length / 2)]!,
    p99: times[Math.floor(times.length * 0.99)]!,
  };
}
latency(keywords);
latency(learned); // warm both
const base = latency(keywords);
const withModel = latency(learned);
console.log(
  `retrieval per prompt: keywords p50 ${base.p50.toFixed(3)} ms p99 ${base.p99.toFixed(3)} ms; learned p50 ${withModel.p50.toFixed(3)} ms p99 ${withModel.p99.toFixed(3)} ms (ratio p99 ${(withModel.p99 / base.p99).toFixed(2)})`,
);

// Refit of 1,000 labelled prompts: the shipped and held-out cases, repeated with a varying suffix.
const thousand: EvalCase[] = Array.from({ length: 1000 }, (_, i) => {
  const c = [...evals.cases, ...holdout.cases][i % (evals.cases.length + holdout.cases.length)]!;
  return {
    ...c,
    prompt: i < evals.cases.length + holdout.cases.length ? c.prompt : `${c.prompt} (${i})`,
  };
});
const set: EvalSet = { cases: thousand, thresholds: {} };
let started = performance.now();
await evalLexical(keywords, set);
const evalMs = performance.now() - started;
started = performance.now();
const model = fitLearned(constitution, index, thousand);
const fitMs = performance.now() - started;
console.log(
  `fit of 1,000 labelled prompts: ${(fitMs / 1000).toFixed(2)} s (${Object.keys(model.domains).length} domain and ${Object.keys(model.principles).length} principle models), ${(fitMs / evalMs).toFixed(1)}x one keyword-only eval run of them (${evalMs.toFixed(0)} ms); load average ${loadavg()[0]!.toFixed(2)}`,
);
