import { PRINCIPLES, type Principle, type ScoreDict } from "@/lib/reward";

/**
 * turn_score's column for each principle: the Prisma field and the SQL column. The one
 * map of score columns; everything that reads or writes a principle's score goes by it.
 */
export const SCORE_COLUMN = {
  tasteful: { field: "tasteful", sql: "tasteful" },
  curated: { field: "curated", sql: "curated" },
  ethical: { field: "ethical", sql: "ethical" },
  joy_inducing: { field: "joyInducing", sql: "joy_inducing" },
  composable: { field: "composable", sql: "composable" },
  heterarchical: { field: "heterarchical", sql: "heterarchical" },
  generative: { field: "generative", sql: "generative" },
} as const satisfies Record<Principle, { field: string; sql: string }>;

/** A turn_score row's Prisma field holding a principle's score. */
export type ScoreField = (typeof SCORE_COLUMN)[Principle]["field"];

/** The seven scores of a turn_score row (Prisma fields), as a ScoreDict. */
export function scoresOf(row: Record<ScoreField, number>): ScoreDict {
  return Object.fromEntries(PRINCIPLES.map((p) => [p, row[SCORE_COLUMN[p].field]])) as ScoreDict;
}

/** A ScoreDict as turn_score's Prisma fields. */
export function scoreFields(scores: ScoreDict): Record<ScoreField, number> {
  return Object.fromEntries(PRINCIPLES.map((p) => [SCORE_COLUMN[p].field, scores[p]])) as Record<
    ScoreField,
    number
  >;
}
