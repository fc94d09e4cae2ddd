import type { RecomputeJobProgress } from "@/lib/schemas/weight-rows";
import { jobStatusSchema, type JobKind, type JobStatus } from "@/lib/schemas/statuses";
import { db } from "./client";
import { parseColumn } from "./json-column";
import { inTransaction, type Tx } from "./transaction";
import { scores } from "./scores";
import { weightSets } from "./weights";

export type { JobKind };

/** The leased job table: recomputes of stored totals (kind "recompute"), reflections on ended sessions (kind "reflect") and fits of learned weights (kind "fit"). */
export type LeasedJob = {
  id: number;
  weight_set_id: number | null;
  session_id: string | null;
  version_id: number | null;
  cursor: string | null;
};

/** What a job of each kind is called in messages for people. */
const JOB_NAMES: Record<JobKind, string> = {
  recompute: "the recompute job",
  reflect: "the reflection job",
  fit: "the fit job",
};

/** A worker no longer holds a job's lease: another instance took it over, or it was superseded. */
export class LeaseLostError extends Error {
  constructor(
    readonly jobId: number,
    readonly kind?: JobKind,
  ) {
    super(`Lost the lease on ${kind ? JOB_NAMES[kind] : "job"} ${jobId}.`);
    this.name = "LeaseLostError";
  }
}

/** The leased job table (background_job): recomputes of stored totals and reflections on ended sessions. */
export const jobs = {
  /**
   * Claims up to `limit` runnable jobs of a kind, oldest first: queued ones, and running
   * ones whose lease lapsed (their process stopped). SKIP LOCKED, so two instances never
   * take the same job. Each claim counts as an attempt.
   */
  async claim(
    kind: JobKind,
    owner: string,
    options: { limit: number; leaseSeconds: number },
  ): Promise<LeasedJob[]> {
    return db().$queryRaw<LeasedJob[]>`
    UPDATE background_job SET status = 'running', lease_owner = ${owner}, lease_until = now() + make_interval(secs => ${options.leaseSeconds}), attempts = attempts + 1
    WHERE id IN (
      SELECT id FROM background_job
      WHERE kind = ${kind} AND status IN ('queued', 'running') AND (lease_until IS NULL OR lease_until < now())
      ORDER BY id LIMIT ${options.limit} FOR UPDATE SKIP LOCKED
    )
    RETURNING id, weight_set_id, session_id, version_id, cursor`;
  },

  /**
   * Recomputes one batch of stored totals under a recompute job's weight set, in one
   * transaction with the job's progress; throws LeaseLostError (and commits nothing) when
   * `owner` no longer holds the job or the job is no longer running (superseded by a newer
   * weight set). The job's row is locked first, so a save that supersedes the job waits
   * for this batch or this batch sees it superseded; the progress update checks owner and
   * status again all the same. Returns false when the job is finished.
   *
   * Progress counts what was recomputed: turns already under the job's weight set (scored
   * after the save) are skipped, a turn scored under an older set while the job ran is
   * recomputed and added to the total, and the total is the count done at the end (turns
   * deleted meanwhile are not owed): `done` never exceeds `total`.
   */
  async runRecomputeBatch(
    job: { id: number; weight_set_id: number },
    owner: string,
    options: { batchSize: number; leaseMs: number },
  ): Promise<boolean> {
    return inTransaction(async (tx) => {
      const [state] = await tx.$queryRaw<
        { status: string; lease_owner: string | null; cursor: string | null }[]
      >`SELECT status, lease_owner, cursor FROM background_job WHERE id = ${job.id} FOR UPDATE`;
      if (!state) throw new LeaseLostError(job.id, "recompute");
      const status = parseColumn(jobStatusSchema, state.status, {
        table: "background_job",
        id: job.id,
        field: "status",
      });
      if (state.lease_owner !== owner || status !== "running")
        throw new LeaseLostError(job.id, "recompute");
      const weights = await weightSets.getIn(tx, job.weight_set_id);
      const ids = await scores.reweigh(tx, {
        cursor: state.cursor,
        limit: options.batchSize,
        weights,
      });
      const finished = ids.length < options.batchSize;
      const leaseUntil = new Date(Date.now() + options.leaseMs);
      const running = "running" satisfies JobStatus;
      const moved = finished
        ? await tx.$executeRaw`UPDATE background_job SET cursor = ${ids.at(-1) ?? state.cursor}, done = done + ${ids.length}, total = done + ${ids.length}, status = ${"done" satisfies JobStatus}, finished_at = now(), lease_owner = NULL, lease_until = ${leaseUntil} WHERE id = ${job.id} AND lease_owner = ${owner} AND status = ${running}`
        : await tx.$executeRaw`UPDATE background_job SET cursor = ${ids.at(-1) ?? state.cursor}, done = done + ${ids.length}, total = GREATEST(total, done + ${ids.length}), lease_until = ${leaseUntil} WHERE id = ${job.id} AND lease_owner = ${owner} AND status = ${running}`;
      if (moved !== 1) throw new LeaseLostError(job.id, "recompute");
      return !finished;
    });
  },

  /** Marks a job failed with why, and releases it. */
  async fail(id: number, error: string): Promise<void> {
    await db().backgroundJob.update({
      where: { id },
      data: { status: "failed" satisfies JobStatus, error, leaseOwner: null },
    });
  },

  /** Marks a job done, if `owner` still holds it. */
  async finish(id: number, owner: string): Promise<void> {
    await db().backgroundJob.updateMany({
      where: { id, leaseOwner: owner },
      data: { status: "done" satisfies JobStatus, finishedAt: new Date(), leaseOwner: null },
    });
  },

  /** Releases a job `owner` holds for another try, or fails it once it has had `maxAttempts`. */
  async release(id: number, owner: string, error: string, maxAttempts: number): Promise<void> {
    await db()
      .$executeRaw`UPDATE background_job SET status = CASE WHEN attempts >= ${maxAttempts} THEN 'failed' ELSE 'queued' END, error = ${error}, lease_owner = NULL, lease_until = NULL WHERE id = ${id} AND lease_owner = ${owner}`;
  },

  /** Queues the reflector for ended sessions. */
  async queueReflections(tx: Tx, sessionIds: string[]): Promise<void> {
    if (sessionIds.length === 0) return;
    await tx.$executeRawUnsafe(
      `INSERT INTO background_job (kind, session_id, status) SELECT 'reflect', s, 'queued' FROM unnest($1::text[]) AS s`,
      sessionIds,
    );
  },

  /** The newest recompute job, for the Weights page's progress bar. */
  async latestRecompute(): Promise<RecomputeJobProgress | null> {
    const row = await db().backgroundJob.findFirst({
      where: { kind: "recompute" },
      orderBy: { id: "desc" },
    });
    return row
      ? {
          id: row.id,
          weightSetId: row.weightSetId,
          status: parseColumn(jobStatusSchema, row.status, {
            table: "background_job",
            id: row.id,
            field: "status",
          }),
          total: row.total,
          done: row.done,
          error: row.error,
          finishedAt: row.finishedAt?.toISOString() ?? null,
        }
      : null;
  },
} as const;
