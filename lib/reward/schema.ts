import { z } from "zod";

/**
 * docs/spec/turn-score.md (Constitutional Reward): the seven principles a turn is scored on, the
 * turn's shape, and a score. Keys are snake_case as in the seed's to_dict.
 */
export const PRINCIPLES = [
  "tasteful",
  "curated",
  "ethical",
  "joy_inducing",
  "composable",
  "heterarchical",
  "generative",
] as const;
export const principleSchema = z.enum(PRINCIPLES);
export type Principle = z.infer<typeof principleSchema>;

/** The question each principle asks (docs/spec/turn-score.md). */
export const PRINCIPLE_QUESTIONS: Record<Principle, string> = {
  tasteful: "Does this serve a clear purpose?",
  curated: "Is this intentional?",
  ethical: "Does this respect human agency?",
  joy_inducing: "Does this delight?",
  composable: "Does this compose cleanly?",
  heterarchical: "Can this both lead and follow?",
  generative: "Is this compressive?",
};

/** The turn-score spec's default weights (sum 8.7): safety first, architecture second. */
export const DEFAULT_WEIGHTS: Readonly<Record<Principle, number>> = {
  ethical: 2.0,
  composable: 1.5,
  joy_inducing: 1.2,
  tasteful: 1.0,
  curated: 1.0,
  heterarchical: 1.0,
  generative: 1.0,
};

export const unitScore = z
  .number({ error: "must be a number" })
  .min(0, "must be between 0 and 1")
  .max(1, "must be between 0 and 1");

/**
 * kgents' TurnResult fields (services/chat/evidence.py) that the score does not read:
 * accepted whatever their value, as kgents' reward ignores them too.
 */
export const UNSCORED_TURN_FIELDS = ["user_corrected", "signals", "stopping_suggestion"] as const;

/**
 * What an agent turn produced: kgents' TurnResult. `tools` is counted, whatever its
 * entries hold (kgents takes `len(tools)`); fields the score does not read pass
 * through. `context_utilization` (0..1, null = unknown) is Charter's addition for GENERATIVE.
 */
export const turnResultSchema = z.looseObject({
  response: z.string({ error: "must be a string" }).default(""),
  tools: z.array(z.unknown(), { error: "must be a list" }).default([]),
  tools_passed: z.boolean({ error: "must be true or false" }).default(true),
  context_utilization: unitScore.nullish(),
});
export type TurnResult = z.output<typeof turnResultSchema>;
export type TurnResultInput = z.input<typeof turnResultSchema>;
/** The TurnResult fields the score reads. */
export const SCORED_TURN_FIELDS = [
  "response",
  "tools",
  "tools_passed",
  "context_utilization",
] as const;

/** A weight set: any subset of principles; a missing principle weighs 1.0 (docs/spec/turn-score.md). */
export const weightsSchema = z.partialRecord(
  principleSchema,
  z
    .number({ error: "must be a number" })
    .min(0, "must not be negative")
    .max(100, "must be at most 100"),
);
export type Weights = z.infer<typeof weightsSchema>;

/** Per-principle scores as a dict: values outside 0..1 are rejected; missing keys are 1.0; unknown keys are dropped (kgents' from_dict reads only the seven). */
export const scoreDictSchema = z.object(
  Object.fromEntries(PRINCIPLES.map((p) => [p, unitScore.optional()])) as Record<
    Principle,
    z.ZodOptional<typeof unitScore>
  >,
);
export type ScoreDict = Record<Principle, number>;
