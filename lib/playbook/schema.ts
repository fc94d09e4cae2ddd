import { z } from "zod";

/**
 * docs/spec/playbook.md (Data Contract: Scoring Module): PlaybookEntry, Playbook, ExtractionResult
 * and Evaluation.
 */
export const PLAYBOOK_VERSION = "1.0";
export const RATINGS = ["helpful", "harmful", "neutral"] as const;

/**
 * A key point as a file holds it: the seed's four fields, and any other field the
 * file gave it (the ACE fork keeps them, e.g. `section`). Names need not be `kpt_NNN`.
 */
export const playbookEntrySchema = z.looseObject({
  name: z.string().min(1, "must not be empty"),
  text: z.string().trim().min(1, "must not be empty"),
  helpful: z.number().int().min(0, "must be 0 or more (INV-SCORE-001)"),
  harmful: z.number().int().min(0, "must be 0 or more (INV-SCORE-002)"),
});
export type PlaybookEntry = z.infer<typeof playbookEntrySchema>;

export const playbookSchema = z
  .looseObject({
    /** "1.0" in the seed; a file's number is kept as it is, as the ACE fork keeps it. */
    version: z.union([z.string().min(1), z.number()]),
    last_updated: z.string().nullable(),
    key_points: z.array(playbookEntrySchema),
  })
  .superRefine((p, ctx) => {
    const seen = new Set<string>();
    p.key_points.forEach((k, i) => {
      if (seen.has(k.name))
        ctx.addIssue({
          code: "custom",
          path: ["key_points", i, "name"],
          message: `${k.name} is used twice: names are unique within a playbook`,
        });
      seen.add(k.name);
    });
  });
/** A playbook file: the seed's three fields and any other top-level field the file had (kept on save). */
export type Playbook = z.infer<typeof playbookSchema>;

export type Evaluation = { name: string; rating: string };

/**
 * The reflector's output (the playbook spec's ExtractionResult) as Charter applies it: new
 * texts and ratings, and the warnings from reading it (malformed items skipped).
 */
export type ExtractionResult = {
  new_key_points: string[];
  evaluations: Evaluation[];
  warnings?: readonly string[];
};

/** The empty playbook (docs/spec/playbook.md): returned when the file is missing or corrupt. */
export function emptyPlaybook(): Playbook {
  return { version: PLAYBOOK_VERSION, last_updated: null, key_points: [] };
}
