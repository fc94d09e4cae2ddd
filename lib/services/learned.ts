import { randomUUID } from "node:crypto";
import {
  ConstitutionStore,
  crossValidate,
  evalLexical,
  isEmptyModel,
  LexicalIndex,
  type LearnedModel,
} from "@/lib/constitution";
import { changeBus, memo } from "@/lib/db/change-bus";
import { constitutionVersions } from "@/lib/db/constitution";
import { constitutionModels } from "@/lib/db/constitution-models";
import type { LearnedStatus, StoredModel } from "@/lib/schemas/constitution-rows";
import { jobs } from "@/lib/db/jobs";
import { envStoreConfig } from "@/lib/env";
import { log } from "@/lib/log";
import { startWorkerLoop, type WorkerLoop } from "./worker-loop";

/** A fit job that failed this many times is given up (the version is served on its keywords alone). */
export const FIT_ATTEMPTS = 3;

/** Gives the event loop back between two models of a fit, so hooks are answered while it runs. */
export const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

let fitting: Promise<unknown> = Promise.resolve();

/**
 * Runs one fit at a time in this process: a fit job and an impact preview's refit (each
 * holds a model per fold, tens of MB) never add up inside the server's heap cap.
 */
export function oneFitAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = fitting.then(work, work);
  fitting = run.catch(() => undefined);
  return run;
}

/**
 * Fits a version's learned weights from its eval set and stores them with the eval's
 * figures on the keywords alone and cross-validated. Announced, so every instance serves
 * the model at once.
 */
export async function fitVersion(versionId: number): Promise<StoredModel> {
  const stored = await constitutionModels.get(versionId);
  if (stored) return stored;
  const version = await constitutionVersions.get(versionId);
  const started = performance.now();
  const built = new LexicalIndex(version.constitution);
  const config = envStoreConfig();
  const keywords = await evalLexical(
    new ConstitutionStore(version.constitution, config, { index: built }),
    version.evals,
  );
  const cv = await oneFitAtATime(() =>
    crossValidate(version.constitution, version.evals, {
      index: built,
      config,
      pause: yieldToLoop,
    }),
  );
  await constitutionModels.put({
    versionId,
    model: cv.model,
    folds: cv.folds,
    keywords: keywords.metrics,
    crossValidated: cv.report.metrics,
    fitMs: Math.round(performance.now() - started),
  });
  await changeBus.announce({ topic: "constitution_model", id: String(versionId) });
  return (await constitutionModels.get(versionId))!;
}

/**
 * The learned model a version is served with, or undefined while it has none (not fitted
 * yet, or fitted from no labels). Kept in memory until a fit is announced.
 */
export async function learnedFor(versionId: number): Promise<LearnedModel | undefined> {
  const models = memo(
    "learned-models",
    ["constitution_model"],
    async () => new Map<number, LearnedModel | null>(),
  );
  const kept = await models.get();
  if (!kept.has(versionId)) {
    try {
      const stored = await constitutionModels.get(versionId);
      // A version saved before fits existed (or whose job was lost) gets one now.
      if (!stored) await constitutionModels.queueFitIfMissing(versionId);
      kept.set(versionId, stored && !isEmptyModel(stored.model) ? stored.model : null);
    } catch (error) {
      // A prompt is never refused for want of its model: the keywords alone answer, and the next prompt asks again.
      log.warn(
        `could not read the learned weights of constitution version ${versionId}, retrieving on the keywords alone: ${error instanceof Error ? error.message : String(error)}`,
      );
      return undefined;
    }
  }
  return kept.get(versionId) ?? undefined;
}

export async function learnedStatus(versionId: number): Promise<LearnedStatus> {
  const fit = await constitutionModels.get(versionId);
  if (fit) return { state: "fitted", fit };
  const job = await constitutionModels.latestFit(versionId);
  if (!job) return { state: "none" };
  if (job.status === "failed") return { state: "failed", error: job.error ?? "unknown error" };
  return { state: "pending" };
}

/** Runs queued fits, one at a time, until none is left; returns how many ran. */
export async function drainFits(owner: string = randomUUID()): Promise<number> {
  let done = 0;
  for (;;) {
    const [job] = await jobs.claim("fit", owner, { limit: 1, leaseSeconds: 300 });
    if (!job) return done;
    try {
      const fit = await fitVersion(job.version_id!);
      log.info(
        `fitted the learned weights of constitution version ${fit.versionId} in ${fit.fitMs} ms (${Object.keys(fit.model.domains).length} domain and ${Object.keys(fit.model.principles).length} principle models)`,
      );
      await jobs.finish(job.id, owner);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log.warn(`fit of constitution version ${job.version_id}: ${message}`);
      await jobs.release(job.id, owner, message, FIT_ATTEMPTS).catch(() => undefined);
    }
    done += 1;
  }
}

const globalWorker = globalThis as unknown as { __charterFit?: WorkerLoop };

/** Starts this process's fit worker: it polls the queue and backs off (logging once) while the database is down. */
export function startFitWorker(intervalMs = 2_000): void {
  if (globalWorker.__charterFit) return;
  const owner = `${process.pid}-${randomUUID()}`;
  globalWorker.__charterFit = startWorkerLoop(
    async () => {
      await drainFits(owner);
    },
    { name: "the fit worker", intervalMs },
  );
}

/** Stops this process's fit worker (at shutdown). */
export function stopFitWorker(): void {
  globalWorker.__charterFit?.stop();
  globalWorker.__charterFit = undefined;
}
