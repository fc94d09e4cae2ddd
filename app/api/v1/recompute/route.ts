import { jobs } from "@/lib/db/jobs";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** GET /api/v1/recompute: the newest recompute job's progress. */
export const GET = route({ role: "viewer", scope: "read" }, async () => {
  const job = await jobs.latestRecompute();
  return job
    ? {
        id: job.id,
        weightSetId: job.weightSetId,
        status: job.status,
        total: job.total,
        done: job.done,
        error: job.error,
        finishedAt: job.finishedAt,
      }
    : null;
});
