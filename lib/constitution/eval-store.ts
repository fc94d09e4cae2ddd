import { runEval, type EvalReport } from "./eval";
import type { EvalSet } from "./eval-schema";
import type { SemanticSimilarities } from "./hybrid";
import { ConstitutionStore } from "./store";
import type { ConstitutionStoreConfigInput } from "./config";
import type { Constitution } from "./schema";

/**
 * Runs an eval set on a store's lexical path, timing each prompt with `now`
 * (performance.now by default); with `semantic`, on the hybrid path, each prompt's
 * similarities computed beforehand. What `charter constitution eval`, the Evals page
 * and the impact preview measure.
 */
export function evalLexical(
  store: ConstitutionStore,
  set: EvalSet,
  semantic?: (prompt: string) => SemanticSimilarities | undefined,
  now: () => number = () => performance.now(),
): Promise<EvalReport> {
  return runEval(set, (prompt) => {
    const started = now();
    const got = store.retrieveLexical(prompt, { semantic: semantic?.(prompt) });
    const ms = now() - started;
    return {
      domains: got.domains.map((d) => d.domain),
      principles: got.principles.map((p) => ({ id: p.id, domain: p.overlay, chars: p.chars })),
      ms,
    };
  });
}

/** The ids a store's lexical path injects for a prompt (for replays). */
export function injectedIds(store: ConstitutionStore): (prompt: string) => string[] {
  return (prompt) => store.retrieveLexical(prompt).principles.map((p) => p.id);
}

export type Calibration = {
  semantic_floor: number;
  semantic_ceiling: number;
  report: EvalReport;
  margin: number;
};

/** How far each threshold is met (negative when missed, ten times heavier), summed; counts are taken relative to their limit. */
export function thresholdMargin(report: EvalReport): number {
  return report.thresholds.reduce((n, t) => {
    const scale = t.name === "mean_principles" || t.name === "mean_chars" ? t.limit || 1 : 1;
    const m = (t.direction === "min" ? t.value - t.limit : t.limit - t.value) / scale;
    return n + (m < 0 ? 10 * m : m);
  }, 0);
}

/**
 * Calibrates the semantic step on an eval set: tries similarity floors and ceilings
 * and ranks them by how well they meet the set's thresholds (best first).
 */
export async function calibrateSemantic(
  constitution: Constitution,
  set: EvalSet,
  similarities: (prompt: string) => SemanticSimilarities,
  base: ConstitutionStoreConfigInput = {},
  floors: readonly number[] = [0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6],
  widths: readonly number[] = [0.1, 0.2, 0.3, 0.4],
): Promise<Calibration[]> {
  const out: Calibration[] = [];
  for (const floor of floors) {
    for (const width of widths) {
      const ceiling = Math.round((floor + width) * 100) / 100;
      if (ceiling > 1) continue;
      const store = new ConstitutionStore(constitution, {
        ...base,
        semantic_floor: floor,
        semantic_ceiling: ceiling,
      });
      const report = await evalLexical(store, set, similarities);
      out.push({
        semantic_floor: floor,
        semantic_ceiling: ceiling,
        report,
        margin: thresholdMargin(report),
      });
    }
  }
  return out.sort((a, b) => b.margin - a.margin);
}
