import { randomUUID } from "node:crypto";
import { jobs, LeaseLostError } from "@/lib/db/jobs";
import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import { log } from "@/lib/log";
import { startWorkerLoop, type WorkerLoop } from "./worker-loop";

export { LeaseLostError };

/** Turns recomputed per transaction; each batch commits its progress, so a restart resumes where it stopped. */
export const RECOMPUTE_BATCH = 500;
/** A worker's claim on a job lapses after this long without progress; another instance may then take over. */
export const LEASE_MS = 30_000;

type ClaimedJob = { id: number; weight_set_id: number; cursor: string | null };

/** Claims the oldest runnable recompute job, so two instances never take the same one (see jobs.claim). */
export async function claimJob(owner: string): Promise<ClaimedJob | null> {
  const [job] = await jobs.claim("recompute", owner, { limit: 1, leaseSeconds: LEASE_MS / 1000 });
  return job ? { id: job.id, weight_set_id: job.weight_set_id!, cursor: job.cursor } : null;
}

/**
 * Recomputes one batch of stored totals under the job's weight set (per-principle
 * scores do not change), in one transaction with the job's progress. Returns false
 * when the job is finished.
 */
export async function runBatch(
  job: ClaimedJob,
  owner: string,
  batchSize = RECOMPUTE_BATCH,
): Promise<boolean> {
  return jobs.runRecomputeBatch(job, owner, { batchSize, leaseMs: LEASE_MS });
}

/** Runs every runnable job to the end; safe to call from several instances at once. */
export async function drainRecomputeJobs(
  owner: string = randomUUID(),
  batchSize = RECOMPUTE_BATCH,
): Promise<number> {
  let finished = 0;
  for (let job = await claimJob(owner); job; job = await claimJob(owner)) {
    try {
      while (await runBatch(job, owner, batchSize));
      finished++;
    } catch (error) {
      if (error instanceof LeaseLostError) continue;
      // Not the job's fault: its lease lapses and a worker resumes it from its cursor.
      if (isDatabaseUnavailable(error)) throw error;
      await jobs.fail(job.id, error instanceof Error ? error.message : String(error));
      log.error(`recompute job ${job.id} failed`, error);
    }
  }
  return finished;
}

const globalWorker = globalThis as unknown as { __charterRecompute?: WorkerLoop };

/**
 * Starts this process's background worker: it polls for recompute jobs every
 * `intervalMs`, and backs off (logging once) while the database is down.
 */
export function startRecomputeWorker(
  options: { intervalMs?: number; maxBackoffMs?: number } = {},
): WorkerLoop {
  if (globalWorker.__charterRecompute) return globalWorker.__charterRecompute;
  const owner = `${process.pid}-${randomUUID()}`;
  globalWorker.__charterRecompute = startWorkerLoop(
    async () => {
      await drainRecomputeJobs(owner);
    },
    { name: "the recompute worker", intervalMs: options.intervalMs ?? 1_000, ...options },
  );
  return globalWorker.__charterRecompute;
}

/** Stops this process's worker (at shutdown, or between tests); a batch under way commits or rolls back on its own. */
export function stopRecomputeWorker(): void {
  globalWorker.__charterRecompute?.stop();
  globalWorker.__charterRecompute = undefined;
}
