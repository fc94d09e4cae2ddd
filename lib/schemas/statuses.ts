import { z } from "zod";

/**
 * The values each free-text status column may hold, checked where rows are read
 * (lib/db): a value outside its list is a corrupt row, not a new state.
 */

/** background_job.kind: totals under a weight set, the reflector on one ended session, or the learned weights of a constitution version. */
export const JOB_KINDS = ["recompute", "reflect", "fit"] as const;
export const jobKindSchema = z.enum(JOB_KINDS);
export type JobKind = z.infer<typeof jobKindSchema>;

/** background_job.status. */
export const JOB_STATUSES = ["queued", "running", "done", "failed", "superseded"] as const;
export const jobStatusSchema = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof jobStatusSchema>;

/** key_point.status: proposed meets the prune rule and waits for a person; pruned is recoverable. */
export const KEY_POINT_STATUSES = ["active", "proposed", "pruned"] as const;
export const keyPointStatusSchema = z.enum(KEY_POINT_STATUSES);
export type KeyPointStatus = z.infer<typeof keyPointStatusSchema>;

/** session_outcome.status (the credit-assignment spec). */
export const OUTCOME_STATUSES = ["success", "failure", "partial"] as const;
export const outcomeStatusSchema = z.enum(OUTCOME_STATUSES);
export type OutcomeStatusValue = z.infer<typeof outcomeStatusSchema>;

/** reflection.status. */
export const REFLECTION_STATUSES = ["applied", "failed"] as const;
export const reflectionStatusSchema = z.enum(REFLECTION_STATUSES);
export type ReflectionStatus = z.infer<typeof reflectionStatusSchema>;

/**
 * turn.context_delivery: whether the agent was given what the server answered for the
 * prompt; `unsupported` when the agent takes no context with a prompt at all.
 */
export const CONTEXT_DELIVERIES = [
  "delivered",
  "spooled",
  "imported",
  "unsupported",
  "none",
] as const;
export const contextDeliverySchema = z.enum(CONTEXT_DELIVERIES);
export type ContextDelivery = z.infer<typeof contextDeliverySchema>;
