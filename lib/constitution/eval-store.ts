import { runEval, type EvalReport } from "./eval";
import type { EvalSet } from "./eval-schema";
import type { SemanticSimilarities } from "./hybrid";
import { LexicalIndex } from "./lexical";
import { ConstitutionStore } from "./store";
import type { ConstitutionStoreConfigInput } from "./config";
import type { Constitution } from "./schema";

/**
 * Runs an eval set on a store's lexical path, timing each prompt with `now`
 * (performance.now by default); with `semantic`, on the hybrid path, each prompt's
 * similarities computed beforehand. What `charter constitution eval`, the Evals page
 * and the impact preview measure. `store` may name the store per prompt (a
 * cross-validation answers each fold with its own).
 */
export function evalLexical(
  store: ConstitutionStore | ((prompt: string) => ConstitutionStore),
  set: EvalSet,
  semantic?: (prompt: string) => SemanticSimilarities | undefined,
  now: () => number = () => performance.now(),
): Promise<EvalReport> {
  const storeFor = typeof store === "function" ? store : () => store;
  return runEval(set, (prompt) => {
    const started = now();
    const got = storeFor(prompt).retrieveLexical(prompt, { semantic: semantic?.(prompt) });
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
  /** Why the point sits on the edge of the grid it was chosen from (gridEdges); empty inside it. */
  edges: string[];
};

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * The similarity floors `charter constitution eval --semantic` tries: 0.1 to 0.95 by 0.05.
 * Models differ in where unrelated texts sit: some put everything above 0.8.
 */
export const SEMANTIC_FLOORS: readonly number[] = Array.from({ length: 18 }, (_, i) =>
  round2(0.1 + i * 0.05),
);

/** How far above its floor each ceiling is tried; a ceiling above 1, the highest similarity, is not. */
export const SEMANTIC_WIDTHS: readonly number[] = [0.05, 0.1, 0.2, 0.3, 0.4];

/**
 * Why a floor and ceiling sit on the edge of the grid they were tried on, where a better
 * point may lie beyond it: the lowest or highest floor, the narrowest width, or the widest
 * with room above it (a ceiling of 1 has none). Empty inside the grid.
 */
export function gridEdges(
  point: { semantic_floor: number; semantic_ceiling: number },
  floors: readonly number[] = SEMANTIC_FLOORS,
  widths: readonly number[] = SEMANTIC_WIDTHS,
): string[] {
  const { semantic_floor: floor, semantic_ceiling: ceiling } = point;
  const width = round2(ceiling - floor);
  const edges: string[] = [];
  if (floor <= Math.min(...floors)) edges.push(`floor ${floor} is the lowest tried`);
  if (floor >= Math.max(...floors)) edges.push(`floor ${floor} is the highest tried`);
  if (width <= Math.min(...widths))
    edges.push(`ceiling ${ceiling} is the nearest to its floor tried (${width} above it)`);
  if (width >= Math.max(...widths) && ceiling < 1)
    edges.push(`ceiling ${ceiling} is the farthest from its floor tried (${width} above it)`);
  return edges;
}

/** How far each threshold is met (negative when missed, ten times heavier), summed; counts are taken relative to their limit. */
export function thresholdMargin(report: EvalReport): number {
  return report.thresholds.reduce((n, t) => {
    const scale = t.name === "mean_principles" || t.name === "mean_chars" ? t.limit || 1 : 1;
    const m = (t.direction === "min" ? t.value - t.limit : t.limit - t.value) / scale;
    return n + (m < 0 ? 10 * m : m);
  }, 0);
}

/**
 * Calibrates the semantic step on an eval set: tries every floor with every width above it
 * (SEMANTIC_FLOORS, SEMANTIC_WIDTHS) and ranks the points by how well they meet the set's
 * thresholds, best first; among points that meet them equally, one inside the grid comes
 * before one on its edge. So the best point has `edges` only when no point as good lies
 * inside: then a better one may lie beyond the grid.
 */
export async function calibrateSemantic(
  constitution: Constitution,
  set: EvalSet,
  similarities: (prompt: string) => SemanticSimilarities,
  base: ConstitutionStoreConfigInput = {},
  floors: readonly number[] = SEMANTIC_FLOORS,
  widths: readonly number[] = SEMANTIC_WIDTHS,
): Promise<Calibration[]> {
  const index = new LexicalIndex(constitution);
  const out: Calibration[] = [];
  for (const floor of floors) {
    for (const width of widths) {
      const ceiling = round2(floor + width);
      if (ceiling > 1) continue;
      const point = { semantic_floor: floor, semantic_ceiling: ceiling };
      const store = new ConstitutionStore(constitution, { ...base, ...point }, { index });
      const report = await evalLexical(store, set, similarities);
      out.push({
        ...point,
        report,
        margin: thresholdMargin(report),
        edges: gridEdges(point, floors, widths),
      });
    }
  }
  return out.sort(
    (a, b) => b.margin - a.margin || Number(a.edges.length > 0) - Number(b.edges.length > 0),
  );
}
