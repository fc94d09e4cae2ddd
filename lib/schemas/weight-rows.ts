import type { JobStatus } from "./statuses";

/** A stored weight set as the dashboard shows it (lib/db/weights.ts reads it). */
export type WeightSetRow = {
  id: number;
  weights: Record<string, number>;
  authorLabel: string;
  message: string;
  createdAt: Date;
  maxTotal: number;
};

/** The newest recompute job's progress, as `GET /api/v1/recompute` answers and the Weights page shows it. */
export type RecomputeJobProgress = {
  id: number;
  weightSetId: number | null;
  status: JobStatus;
  total: number;
  done: number;
  error: string | null;
  /** ISO 8601, as JSON carries it. */
  finishedAt: string | null;
};
