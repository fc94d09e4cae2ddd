import { db } from "./client";

/** The leased job table: recomputes of stored totals (kind "recompute") and reflections on ended sessions (kind "reflect"). */
export type JobKind = "recompute" | "reflect";
export type LeasedJob = {
  id: number;
  weight_set_id: number | null;
  session_id: string | null;
  cursor: string | null;
};

/**
 * Claims up to `limit` runnable jobs of a kind, oldest first: queued ones, and running
 * ones whose lease lapsed (their process stopped). SKIP LOCKED, so two instances never
 * take the same job. Each claim counts as an attempt.
 */
export async function claimJobs(
  kind: JobKind,
  owner: string,
  options: { limit: number; leaseSeconds: number },
): Promise<LeasedJob[]> {
  return db().$queryRaw<LeasedJob[]>`
    UPDATE recompute_job SET status = 'running', lease_owner = ${owner}, lease_until = now() + make_interval(secs => ${options.leaseSeconds}), attempts = attempts + 1
    WHERE id IN (
      SELECT id FROM recompute_job
      WHERE kind = ${kind} AND status IN ('queued', 'running') AND (lease_until IS NULL OR lease_until < now())
      ORDER BY id LIMIT ${options.limit} FOR UPDATE SKIP LOCKED
    )
    RETURNING id, weight_set_id, session_id, cursor`;
}
