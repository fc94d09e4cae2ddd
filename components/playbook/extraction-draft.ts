import type { FieldErrors, Resolver } from "react-hook-form";
import type { z } from "zod";
import { issueLines } from "@/lib/errors";
import type { RATINGS } from "@/lib/playbook/schema";
import { applyExtractionSchema } from "@/lib/schemas/playbook";

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

/** The extraction form's fields: filled in as a form, or pasted as JSON. */
export type ExtractionDraft = {
  mode: "form" | "json";
  json: string;
  newPoints: string;
  evaluations: EvaluationRow[];
  sessionId: string;
};

export type ApplyExtractionInput = z.input<typeof applyExtractionSchema>;

/**
 * The draft as the action's input, checked with the action's own schema, or the problems
 * as "path: message" lines. The input is sent as given: the server reads it again and
 * reports the items it skips.
 */
export function readDraft(
  draft: ExtractionDraft,
): { input: ApplyExtractionInput; problems?: undefined } | { problems: string[] } {
  let extraction: unknown;
  if (draft.mode === "json") {
    try {
      extraction = JSON.parse(draft.json);
    } catch (error) {
      return {
        problems: [`Not valid JSON: ${error instanceof Error ? error.message : String(error)}`],
      };
    }
  } else {
    const drafted = extractionFromForm(draft.newPoints, draft.evaluations);
    if (drafted.new_key_points.length === 0 && drafted.evaluations.length === 0)
      return { problems: ["Add a new key point or an evaluation."] };
    extraction = drafted;
  }
  const input = {
    extraction: extraction as ApplyExtractionInput["extraction"],
    sessionId: draft.sessionId.trim() || undefined,
  };
  const parsed = applyExtractionSchema.safeParse(input);
  return parsed.success ? { input } : { problems: issueLines(parsed.error.issues) };
}

/** react-hook-form's resolver for the draft: its problems sit on the form's root error (root.schema), one per line. */
export const extractionResolver: Resolver<ExtractionDraft, unknown, ApplyExtractionInput> = (
  draft,
) => {
  const read = readDraft(draft);
  if (!read.problems) return { values: read.input, errors: {} };
  const errors: FieldErrors<ExtractionDraft> = {};
  errors.root = { schema: { type: "schema", message: read.problems.join("\n") } };
  return { values: {}, errors };
};
