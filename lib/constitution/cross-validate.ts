import type { ConstitutionStoreConfigInput } from "./config";
import type { EvalReport } from "./eval";
import { evalLexical } from "./eval-store";
import type { EvalSet } from "./eval-schema";
import { fitLearnedAsync, lexicalEvidence, type FitOptions, type LearnedModel } from "./learn";
import { LexicalIndex } from "./lexical";
import type { Constitution } from "./schema";
import { ConstitutionStore } from "./store";

/** Folds of a cross-validation unless a caller says otherwise. */
export const CV_FOLDS = 5;

export type CrossValidation = {
  folds: number;
  /** Every case answered by a model fitted without it: the figures to trust. */
  report: EvalReport;
  /** The model fitted on the whole set (what retrieval uses). */
  model: LearnedModel;
};

/**
 * k-fold cross-validation of the learned weights on an eval set: case i is in fold i mod
 * k, each fold is answered by a model fitted on the other folds, and the eval is scored
 * over all of them. The figures never include a case the model was fitted on. A set
 * with fewer cases than folds is answered by the keywords alone (no model can be held out).
 */
export async function crossValidate(
  constitution: Constitution,
  set: EvalSet,
  options: {
    folds?: number;
    config?: ConstitutionStoreConfigInput;
    fit?: Partial<FitOptions>;
    index?: LexicalIndex;
    now?: () => number;
    /** Awaited between models (see fitLearnedAsync); default: none. */
    pause?: () => Promise<void>;
  } = {},
): Promise<CrossValidation> {
  const k = options.folds ?? CV_FOLDS;
  const index = options.index ?? new LexicalIndex(constitution);
  const evidence = set.cases.map((c) => lexicalEvidence(index, c.prompt));
  const pause = options.pause ?? (() => Promise.resolve());
  const foldOf = (i: number) => i % k;
  const stores: ConstitutionStore[] = [];
  for (let fold = 0; fold < k; fold++) {
    const learned =
      set.cases.length >= k
        ? await fitLearnedAsync(
            constitution,
            index,
            set.cases.filter((_, i) => foldOf(i) !== fold),
            pause,
            options.fit,
            evidence.filter((_, i) => foldOf(i) !== fold),
          )
        : undefined;
    stores.push(new ConstitutionStore(constitution, options.config, { index, learned }));
  }
  const fold = new Map(set.cases.map((c, i) => [c.prompt, foldOf(i)]));
  const report = await evalLexical(
    (prompt) => stores[fold.get(prompt) ?? 0]!,
    set,
    undefined,
    options.now,
  );
  const model = await fitLearnedAsync(constitution, index, set.cases, pause, options.fit, evidence);
  return { folds: k, report, model };
}
