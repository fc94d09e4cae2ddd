import {
  compareEvals,
  ConstitutionStore,
  crossValidate,
  evalLexical,
  injectedIds,
  parseConstitution,
  replayImpact,
  withFile,
  type SemanticSimilarities,
} from "@/lib/constitution";
import {
  ConstitutionInvalidError,
  constitutionVersions,
  type Version,
} from "@/lib/db/constitution";
import { constitutionEvals, type EvalRun } from "@/lib/db/constitution-evals";
import type { EvalHistoryEntry } from "@/lib/schemas/constitution-rows";
import { turns } from "@/lib/db/turns";
import { embeddingSettings, envStoreConfig, retrievalPath } from "@/lib/env";
import { ValidationError } from "@/lib/errors";
import { DEFAULT_REPLAY, MAX_REPLAY, type ImpactPreview } from "@/lib/schemas/constitution";
import { semanticFor } from "./embeddings";
import { learnedStatus, oneFitAtATime, yieldToLoop } from "./learned";

// Stored versions are immutable, so their stores are kept (an index takes ~60 ms to build);
// the most recently used few only, as the Evals page may walk many versions.
const stores = new Map<number, ConstitutionStore>();
const MAX_STORES = 8;

function storeOf(version: Version): ConstitutionStore {
  const store =
    stores.get(version.id) ?? new ConstitutionStore(version.constitution, envStoreConfig());
  stores.delete(version.id);
  stores.set(version.id, store);
  for (const oldest of stores.keys()) {
    if (stores.size <= MAX_STORES) break;
    stores.delete(oldest);
  }
  return store;
}

/**
 * A version's eval run on the hybrid path, when the server retrieves on it: the eval
 * prompts embedded in batches, stored once per version. Null on another path;
 * `{ unavailable }` when the embeddings endpoint cannot serve it (nothing stored).
 */
export async function hybridEvalOfVersion(
  versionId: number,
): Promise<EvalRun | { unavailable: string } | null> {
  const settings = embeddingSettings();
  if (retrievalPath() !== "hybrid" || !settings) return null;
  const path = `hybrid:${settings.model}` as const;
  const stored = await constitutionEvals.get(versionId, path);
  if (stored) return stored;
  const version = await constitutionVersions.get(versionId);
  const semantic = await semanticFor(version, { wait: true });
  if (!semantic) return null;
  if ("unavailable" in semantic) return semantic;
  const prompts = version.evals.cases.map((c) => c.prompt);
  let sims: SemanticSimilarities[];
  try {
    sims = await semantic.similaritiesOfMany(prompts);
  } catch (error) {
    return { unavailable: error instanceof Error ? error.message : String(error) };
  }
  const byPrompt = new Map(prompts.map((p, i) => [p, sims[i]!]));
  return constitutionEvals.put(
    version.id,
    path,
    await evalLexical(storeOf(version), version.evals, (p) => byPrompt.get(p)),
  );
}

/** A version's eval run on the lexical path, computed and stored on first request. */
export async function evalOfVersion(versionId: number): Promise<EvalRun> {
  const stored = await constitutionEvals.get(versionId, "lexical");
  if (stored) return stored;
  const version = await constitutionVersions.get(versionId);
  return constitutionEvals.put(
    version.id,
    "lexical",
    await evalLexical(storeOf(version), version.evals),
  );
}

/** The latest `limit` versions with their eval runs, newest first (runs computed where missing). */
export async function evalHistory(limit = 30): Promise<EvalHistoryEntry[]> {
  const versions = await constitutionVersions.list({ limit });
  const runs = await constitutionEvals.forVersions(
    versions.map((v) => v.id),
    "lexical",
  );
  const out = [];
  for (const v of versions) {
    const run = runs.get(v.id) ?? (await evalOfVersion(v.id));
    out.push({
      versionId: v.id,
      createdAt: v.createdAt,
      message: v.message,
      authorLabel: v.authorLabel,
      current: v.current,
      run,
    });
  }
  return out;
}

export type { ImpactPreview };

/**
 * What saving `text` as `path` on top of `baseVersionId` would change, before it is
 * saved: the eval set (the draft's own, so edits to eval files count) on both
 * versions, and a replay of the latest `replay` stored prompts. Nothing is written.
 * An invalid draft is refused with every issue, as a save would be.
 */
export async function previewChange(input: {
  baseVersionId: number;
  path: string;
  text: string;
  replay?: number;
}): Promise<ImpactPreview> {
  const started = performance.now();
  const base = await constitutionVersions.get(input.baseVersionId);
  const parsed = parseConstitution(withFile(base.files, input.path, input.text));
  if (!parsed.ok) throw new ConstitutionInvalidError(parsed.issues);
  const limit = input.replay ?? DEFAULT_REPLAY;
  if (!Number.isInteger(limit) || limit < 0 || limit > MAX_REPLAY)
    throw new ValidationError(`replay must be a whole number from 0 to ${MAX_REPLAY}.`);

  const before = storeOf(base);
  const after = new ConstitutionStore(parsed.constitution, envStoreConfig());
  const [onBase, onDraft, prompts] = await Promise.all([
    evalLexical(before, parsed.evals),
    evalLexical(after, parsed.evals),
    turns.recentPrompts(limit),
  ]);
  // The learned weights the draft would be fitted with, and what each version serves with them.
  const [cv, baseStatus] = await Promise.all([
    oneFitAtATime(() =>
      crossValidate(parsed.constitution, parsed.evals, {
        index: after.index,
        config: envStoreConfig(),
        pause: yieldToLoop,
      }),
    ),
    learnedStatus(base.id),
  ]);
  const baseLearned = baseStatus.state === "fitted" ? baseStatus.fit.model : undefined;
  const served = (store: ConstitutionStore, learned: typeof baseLearned) =>
    new ConstitutionStore(store.constitution, store.config, { index: store.index, learned });
  return {
    baseVersionId: base.id,
    eval: compareEvals(onBase, onDraft),
    draft: {
      metrics: onDraft.metrics,
      thresholds: onDraft.thresholds,
      passed: onDraft.passed,
      failures: onDraft.failures,
    },
    replay: replayImpact(
      prompts,
      injectedIds(served(before, baseLearned)),
      injectedIds(served(after, cv.model)),
    ),
    learned: {
      base: baseStatus.state === "fitted" ? baseStatus.fit.crossValidated : null,
      draft: cv.report.metrics,
      folds: cv.folds,
    },
    ms: Math.round(performance.now() - started),
  };
}
