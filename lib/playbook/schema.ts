import { z } from "zod";

/**
 * Seed 004 (Data Contract: Scoring Module): PlaybookEntry, Playbook, ExtractionResult
 * and Evaluation.
 */
export const PLAYBOOK_VERSION = "1.0";
export const KEYPOINT_NAME = /^kpt_\d{3,}$/;
export const RATINGS = ["helpful", "harmful", "neutral"] as const;

export const playbookEntrySchema = z.strictObject({
  name: z.string().regex(KEYPOINT_NAME, "must look like kpt_001"),
  text: z.string().trim().min(1, "must not be empty"),
  helpful: z.number().int().min(0, "must be 0 or more (INV-SCORE-001)"),
  harmful: z.number().int().min(0, "must be 0 or more (INV-SCORE-002)"),
});
export type PlaybookEntry = z.infer<typeof playbookEntrySchema>;

export const playbookSchema = z
  .strictObject({
    version: z.string().min(1),
    last_updated: z.string().nullable(),
    key_points: z.array(playbookEntrySchema),
  })
  .superRefine((p, ctx) => {
    const seen = new Set<string>();
    p.key_points.forEach((k, i) => {
      if (seen.has(k.name)) ctx.addIssue({ code: "custom", path: ["key_points", i, "name"], message: `${k.name} is used twice: names are unique within a playbook` });
      seen.add(k.name);
    });
  });
export type Playbook = z.infer<typeof playbookSchema>;

export const evaluationSchema = z.object({ name: z.string(), rating: z.string() });
export type Evaluation = z.infer<typeof evaluationSchema>;

/** The reflector's output (seed 004's ExtractionResult). Unknown ratings are kept and ignored when applied. */
export const extractionResultSchema = z.object({
  new_key_points: z.array(z.string().trim().min(1, "must not be empty")).default([]),
  evaluations: z.array(evaluationSchema).default([]),
});
export type ExtractionResult = z.output<typeof extractionResultSchema>;

/** The empty playbook (seed 004): returned when the file is missing or corrupt. */
export function emptyPlaybook(): Playbook {
  return { version: PLAYBOOK_VERSION, last_updated: null, key_points: [] };
}
