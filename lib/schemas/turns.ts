import { z } from "zod";
import { principleSchema, unitScore, weightsSchema } from "@/lib/reward/schema";

/** A reviewer's override of one principle on one turn: shared by the form and the action. */
export const overrideScoreSchema = z.object({
  turnId: z.string().min(1),
  principle: principleSchema,
  value: unitScore,
  reason: z.string().trim().min(3, "Say why (at least 3 characters).").max(1000),
});
export type OverrideScoreInput = z.input<typeof overrideScoreSchema>;

/** A new weight set: every principle's weight, and why. */
export const saveWeightsSchema = z.object({
  weights: weightsSchema,
  message: z.string().trim().min(1, "Say why the weights change.").max(500),
});
export type SaveWeightsInput = z.input<typeof saveWeightsSchema>;

/** Filters of the Turns table, as URL search params. */
export const turnFiltersSchema = z.object({
  session: z.string().trim().min(1).optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  min: z.coerce.number().min(0).max(1).optional(),
  max: z.coerce.number().min(0).max(1).optional(),
  principle: principleSchema.optional(),
  below: z.coerce.number().min(0).max(1).optional(),
  cursor: z.string().optional(),
});
export type TurnFiltersInput = z.input<typeof turnFiltersSchema>;
