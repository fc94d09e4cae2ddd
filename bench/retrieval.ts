/**
 * Lexical retrieval latency (p50, p99) on the shipped constitution and on one ten
 * times larger, as a ratio to a plain linear scan of the same texts measured in the
 * same run; then the impact preview (the eval set on two versions and a replay of 500
 * prompts) against the linear scan of the same prompts. Run: npx tsx bench/retrieval.ts
 */
import {
  ConstitutionStore,
  evalLexical,
  injectedIds,
  replayImpact,
  type Constitution,
  type Overlay,
} from "@/lib/constitution";
import { allPrinciples } from "@/lib/constitution/overlay";
import { tokenize } from "@/lib/constitution/text";
import { loadConstitution, SHIPPED_CONSTITUTION_DIR } from "@/lib/files/constitution";

const ROUNDS = 30;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The same constitution with every overlay copied `times` times under new domain names and ids. */
function scaled(c: Constitution, times: number): Constitution {
  const overlays: Record<string, Overlay> = {};
  for (let i = 0; i < times; i++) {
    for (const o of Object.values(c.overlays)) {
      const domain = i === 0 ? o.domain : `${o.domain}_${i}`;
      overlays[domain] = {
        ...o,
        domain,
        priority_overrides: i === 0 ? o.priority_overrides : {},
        additional_principles: o.additional_principles.map((p) => ({
          ...p,
          id: i === 0 ? p.id : `${p.id}.${i}`,
          domain,
        })),
      };
    }
  }
  return { ...c, overlays };
}

/** The baseline: for each principle, count the prompt's words found in its texts, then sort. */
function linearScan(c: Constitution, prompt: string): string[] {
  const words = new Set(tokenize(prompt));
  const scored = allPrinciples(c).map((p) => {
    const text = [p.title, p.rule, ...p.keywords, ...p.examples_allow, ...p.examples_deny]
      .join(" ")
      .toLowerCase();
    let hits = 0;
    for (const w of words) if (text.includes(w)) hits++;
    return { id: p.id, hits };
  });
  return scored
    .filter((s) => s.hits > 0)
    .sort((a, b) => b.hits - a.hits)
    .slice(0, 10)
    .map((s) => s.id);
}

async function time(
  label: string,
  prompts: string[],
  run: (prompt: string) => Promise<unknown> | unknown,
) {
  for (const p of prompts.slice(0, 20)) await run(p); // warm-up
  const samples: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const p of prompts) {
      const started = performance.now();
      await run(p);
      samples.push(performance.now() - started);
    }
  }
  samples.sort((a, b) => a - b);
  return { label, p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

const loaded = await loadConstitution(SHIPPED_CONSTITUTION_DIR);
if (!loaded.ok) throw new Error("the shipped constitution is invalid");
const prompts = loaded.evals.cases.map((c) => c.prompt);

console.log(`lexical retrieval, ${prompts.length} prompts x ${ROUNDS} rounds (ms per prompt)`);
for (const [name, constitution] of [
  ["shipped", loaded.constitution],
  ["10x", scaled(loaded.constitution, 10)],
] as const) {
  const built = performance.now();
  // A fresh cache of size 0 so every call does the full search.
  const store = new ConstitutionStore(constitution, { prefilter_cache_size: 0 });
  const buildMs = performance.now() - built;
  const bm25 = await time("bm25", prompts, (p) => store.getRelevantPrinciples(p));
  const scan = await time("scan", prompts, (p) => linearScan(constitution, p));
  const principles = allPrinciples(constitution).length;
  console.log(
    `${name.padEnd(8)} ${String(principles).padStart(4)} principles  index ${buildMs.toFixed(1)} ms  ` +
      `bm25 p50 ${bm25.p50.toFixed(3)} p99 ${bm25.p99.toFixed(3)}  scan p50 ${scan.p50.toFixed(3)} p99 ${scan.p99.toFixed(3)}  ` +
      `ratio bm25/scan p50 ${(bm25.p50 / scan.p50).toFixed(2)} p99 ${(bm25.p99 / scan.p99).toFixed(2)}`,
  );
}

// The impact preview: build the draft's index, run the eval set on both versions, replay 500 prompts.
const REPLAYED = 500;
const replayed = Array.from(
  { length: REPLAYED },
  (_, i) => `${prompts[i % prompts.length]!}${i >= prompts.length ? ` (${i})` : ""}`,
);
const base = new ConstitutionStore(loaded.constitution);
const previewStarted = performance.now();
const draft = new ConstitutionStore(loaded.constitution);
await evalLexical(base, loaded.evals);
await evalLexical(draft, loaded.evals);
const impact = replayImpact(replayed, injectedIds(base), injectedIds(draft));
const previewMs = performance.now() - previewStarted;
const scanStarted = performance.now();
for (const p of [...replayed, ...prompts, ...prompts])
  for (let i = 0; i < 2; i++) linearScan(loaded.constitution, p);
const scanMs = performance.now() - scanStarted;
console.log(
  `impact preview: ${loaded.evals.cases.length} eval cases on two versions + ${impact.prompts} replayed prompts in ${previewMs.toFixed(0)} ms; linear scan of the same prompts ${scanMs.toFixed(0)} ms; ratio ${(previewMs / scanMs).toFixed(2)}`,
);
