import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { claimJobs } from "@/lib/db/jobs";
import { SCORE_SQL_COLUMN } from "@/lib/db/score-columns";
import { log } from "@/lib/log";
import { PRINCIPLES, PrincipleScore } from "@/lib/reward";

/** Turns recomputed per transaction; each batch commits its progress, so a restart resumes where it stopped. */
export const RECOMPUTE_BATCH = 500;
/** A worker's claim on a job lapses after this long without progress; another instance may then take over. */
export const LEASE_MS = 30_000;

type ClaimedJob = { id: number; weight_set_id: number; cursor: string | null };

export class LeaseLostError extends Error {
  constructor(jobId: number) {
    super(`Lost the lease on recompute job ${jobId}.`);
  }
}

/** Claims the oldest runnable recompute job, so two instances never take the same one (see claimJobs). */
export async function claimJob(owner: string): Promise<ClaimedJob | null> {
  const [job] = await claimJobs("recompute", owner, { limit: 1, leaseSeconds: LEASE_MS / 1000 });
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
  return db().$transaction(async (tx) => {
    const state = await tx.recomputeJob.findUniqueOrThrow({ where: { id: job.id } });
    if (state.leaseOwner !== owner || state.status !== "running") throw new LeaseLostError(job.id);
    const set = await tx.weightSet.findUniqueOrThrow({ where: { id: job.weight_set_id } });
    const weights = set.weights as Record<string, number>;
    const max = PrincipleScore.maxTotal(weights);
    const ids = await tx.$queryRaw<
      { turn_id: string }[]
    >`SELECT turn_id FROM turn_score WHERE turn_id > ${state.cursor ?? ""} ORDER BY turn_id LIMIT ${batchSize}`;
    if (ids.length > 0) {
      const sum = PRINCIPLES.map((p) => `${SCORE_SQL_COLUMN[p]} * ${Number(weights[p] ?? 1)}`).join(
        " + ",
      );
      await tx.$executeRawUnsafe(
        `UPDATE turn_score SET weighted_total = round((${sum})::numeric, 4)::float8, max_total = $1::float8, normalized_total = CASE WHEN $1::float8 = 0 THEN 0 ELSE round(((${sum}) / $1::float8)::numeric, 4)::float8 END, weight_set_id = $2::int WHERE turn_id = ANY($3::text[])`,
        max,
        set.id,
        ids.map((r) => r.turn_id),
      );
    }
    const finished = ids.length < batchSize;
    const moved = await tx.recomputeJob.updateMany({
      where: { id: job.id, leaseOwner: owner },
      data: {
        cursor: ids.at(-1)?.turn_id ?? state.cursor,
        done: { increment: ids.length },
        leaseUntil: new Date(Date.now() + LEASE_MS),
        ...(finished ? { status: "done", finishedAt: new Date(), leaseOwner: null } : {}),
      },
    });
    if (moved.count !== 1) throw new LeaseLostError(job.id);
    return !finished;
  });
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
      await db().recomputeJob.update({
        where: { id: job.id },
        data: {
          status: "failed",
          error: error instanceof Error ? error.message : String(error),
          leaseOwner: null,
        },
      });
      log.error(`recompute job ${job.id} failed`, error);
    }
  }
  return finished;
}

const globalWorker = globalThis as unknown as {
  __charterRecompute?: { timer: NodeJS.Timeout; busy: boolean };
};

/** Starts this process's background worker: it polls for recompute jobs every `intervalMs`. */
export function startRecomputeWorker(intervalMs = 1_000): void {
  if (globalWorker.__charterRecompute) return;
  const owner = `${process.pid}-${randomUUID()}`;
  const state = { busy: false, timer: setInterval(() => void tick(), intervalMs) };
  state.timer.unref();
  globalWorker.__charterRecompute = state;
  async function tick() {
    if (state.busy) return;
    state.busy = true;
    try {
      await drainRecomputeJobs(owner);
    } catch (error) {
      log.error("the recompute worker failed", error);
    } finally {
      state.busy = false;
    }
  }
}
