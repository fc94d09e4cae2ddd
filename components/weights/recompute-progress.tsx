"use client";
import { useQuery } from "@tanstack/react-query";
import { Badge } from "@/components/ui/primitives";
import { formatCount } from "@/lib/format";
import type { RecomputeJobProgress } from "@/lib/schemas/weight-rows";

export const RECOMPUTE_QUERY_KEY = ["recompute"] as const;
const POLL_MS = 1_000;
const RUNNING = new Set(["queued", "running"]);

async function fetchJob(): Promise<RecomputeJobProgress | null> {
  const res = await fetch("/api/v1/recompute", {
    headers: { accept: "application/json" },
    cache: "no-store",
  });
  if (!res.ok) throw new Error(`The server answered ${res.status}.`);
  return (await res.json()) as RecomputeJobProgress | null;
}

/** True once the job we wait for (or a newer one) is no longer queued or running. */
function settled(job: RecomputeJobProgress | null | undefined, waitFor: number): boolean {
  return !!job && job.id >= waitFor && !RUNNING.has(job.status);
}

const TONE: Record<string, "green" | "red" | "amber" | "indigo"> = {
  done: "green",
  failed: "red",
  superseded: "amber",
  queued: "indigo",
  running: "indigo",
};

/** The recompute of stored totals after a weight change, polled every second until it settles. */
export function RecomputeProgress({
  jobId,
  initial,
}: {
  jobId: number;
  initial: RecomputeJobProgress | null;
}) {
  const query = useQuery({
    queryKey: RECOMPUTE_QUERY_KEY,
    queryFn: fetchJob,
    initialData: initial,
    staleTime: 0,
    refetchInterval: (q) => (settled(q.state.data, jobId) ? false : POLL_MS),
  });
  const job = query.data;
  const waiting = !job || job.id < jobId;
  const percent =
    !job || waiting
      ? 0
      : job.total === 0
        ? RUNNING.has(job.status)
          ? 0
          : 100
        : Math.round((job.done / job.total) * 100);
  return (
    <div className="space-y-2 rounded-md border border-slate-200 p-3 text-sm">
      <p
        data-testid="recompute-status"
        aria-live="polite"
        className="flex flex-wrap items-center gap-2"
      >
        <span className="font-medium text-slate-800">Recompute job {waiting ? jobId : job.id}</span>
        <Badge tone={waiting ? "indigo" : (TONE[job.status] ?? "indigo")}>
          {waiting ? "queued" : job.status}
        </Badge>
        {waiting ? null : (
          <span className="tabular-nums text-slate-600">
            {formatCount(job.done)}/{formatCount(job.total)} turns
          </span>
        )}
      </p>
      <div
        role="progressbar"
        aria-label="Recompute progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 overflow-hidden rounded bg-slate-100"
      >
        <div
          className={`h-2 rounded transition-all ${job?.status === "failed" ? "bg-red-500" : "bg-indigo-500"}`}
          style={{ width: `${percent}%` }}
        />
      </div>
      {!waiting && job.status === "failed" && job.error ? (
        <p className="text-xs text-red-700">{job.error}</p>
      ) : null}
      {!waiting && job.status === "superseded" ? (
        <p className="text-xs text-slate-500">
          A newer weight set replaced this one before it finished; its own recompute takes over.
        </p>
      ) : null}
      {query.isError ? (
        <p className="text-xs text-red-700">Could not read the progress: {query.error.message}</p>
      ) : null}
    </div>
  );
}
