/**
 * Sweeps the lexical path's thresholds over the shipped eval set and prints the
 * settings that meet the most thresholds with the widest margin. How the defaults
 * in lib/constitution/config.ts were chosen; re-run after changing the constitution.
 * Run: npx tsx bench/tune-retrieval.ts [constitution dir]
 */
import {
  ConstitutionStore,
  evalLexical,
  formatIssue,
  thresholdMargin,
  type ConstitutionStoreConfigInput,
  type EvalReport,
} from "@/lib/constitution";
import { loadConstitution, SHIPPED_CONSTITUTION_DIR } from "@/lib/files/constitution";

const loaded = await loadConstitution(process.argv[2] ?? SHIPPED_CONSTITUTION_DIR);
if (!loaded.ok) throw new Error(loaded.issues.map(formatIssue).join("\n"));

const grid = {
  lexical_min_confidence: [0.4, 0.5, 0.6, 0.7, 0.8],
  lexical_relative_cutoff: [0.5, 0.7, 0.85],
  principle_min_relevance: [0.4, 0.5, 0.6, 0.7],
  domain_carry: [0.3, 0.5, 0.7],
};

const results: { config: ConstitutionStoreConfigInput; report: EvalReport; margin: number }[] = [];
for (const a of grid.lexical_min_confidence)
  for (const b of grid.lexical_relative_cutoff)
    for (const c of grid.principle_min_relevance)
      for (const d of grid.domain_carry) {
        const config = {
          lexical_min_confidence: a,
          lexical_relative_cutoff: b,
          principle_min_relevance: c,
          domain_carry: d,
        };
        const report = await evalLexical(
          new ConstitutionStore(loaded.constitution, config),
          loaded.evals,
        );
        results.push({ config, report, margin: thresholdMargin(report) });
      }
results.sort((x, y) => y.margin - x.margin);
for (const r of results.slice(0, 10)) {
  const m = r.report.metrics;
  console.log(
    `${JSON.stringify(r.config)}  r@1 ${m.domain_recall_at_1} r@3 ${m.domain_recall_at_3} hit ${m.principle_hit_rate} fi ${m.false_injection_rate} trap ${m.trap_rate} mean ${m.mean_principles}  margin ${r.margin.toFixed(3)}`,
  );
}
