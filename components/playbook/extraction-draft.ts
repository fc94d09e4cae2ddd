import type { RATINGS } from "@/lib/playbook/schema";

export type Rating = (typeof RATINGS)[number];

/** One evaluation row of the extraction form: a key point's name and how the session rated it. */
export type EvaluationRow = { name: string; rating: Rating };

/**
 * The form's fields as the reflector's ExtractionResult: one new key point per
 * non-blank line, and the evaluation rows that name a key point. The server reads it
 * with the same rules as a pasted one (applyExtractionSchema).
 */
export function extractionFromForm(
  newPoints: string,
  evaluations: EvaluationRow[],
): { new_key_points: string[]; evaluations: EvaluationRow[] } {
  return {
    new_key_points: newPoints
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line.length > 0),
    evaluations: evaluations
      .map((row) => ({ name: row.name.trim(), rating: row.rating }))
      .filter((row) => row.name.length > 0),
  };
}
