import { z } from "zod";
import { jobStatusSchema } from "./statuses";

/** The newest recompute job's progress (RecomputeJobProgress of ./weight-rows.ts), or `null` when there has been none. */
export const recomputeProgressSchema = z
  .strictObject({
    id: z.number().int(),
    weightSetId: z.number().int().nullable(),
    status: jobStatusSchema,
    total: z.number().int(),
    done: z.number().int(),
    error: z.string().nullable(),
    finishedAt: z.iso.datetime().nullable(),
  })
  .nullable();
