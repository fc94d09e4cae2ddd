import { z } from "zod";
import type { EvalCaseFields } from "@/lib/constitution/eval-yaml";
import type { ReviewedCase } from "@/lib/constitution/review-labels";
import { domainNameSchema } from "@/lib/constitution/schema";

/**
 * A reviewer's label on a prompt (a turn's, a session's or the playground's): shared by
 * the label form and the server actions that draft, accept and remove it.
 */

/** What the label says: an injected principle did not apply, one should have, or only the domains. */
export const LABEL_VERDICTS = ["did_not_apply", "should_apply", "domains_only"] as const;
export type LabelVerdict = (typeof LABEL_VERDICTS)[number];

const labelFields = z.object({
  prompt: z
    .string()
    .trim()
    .min(1, "Enter the prompt.")
    .max(20_000, "Keep the prompt under 20,000 characters."),
  /** The overlay domains the prompt belongs to; `[]` when no overlay applies. */
  domains: z.array(domainNameSchema).max(100),
  verdict: z.enum(LABEL_VERDICTS),
  /** The principle that did not apply or should have; not for a domains-only label. */
  principle: z.string().trim().max(200).optional(),
  note: z.string().trim().max(500, "Keep the note under 500 characters.").optional(),
  /** The turn whose prompt is labelled (its session is the turn's); none on the playground. */
  turnId: z.string().trim().min(1).max(500).optional(),
});

type LabelFields = z.output<typeof labelFields>;

function needsPrinciple(label: LabelFields, ctx: z.RefinementCtx): void {
  if (label.verdict !== "domains_only" && !label.principle)
    ctx.addIssue({
      code: "custom",
      path: ["principle"],
      message:
        label.verdict === "did_not_apply"
          ? "Choose the injected principle that did not apply."
          : "Choose the principle that should have applied.",
    });
}

/** A label to preview: what accepting it would write. */
export const labelSchema = labelFields.superRefine(needsPrinciple);
export type LabelInput = z.input<typeof labelSchema>;
export type Label = z.output<typeof labelSchema>;

/** The message a label is refused with when its text was not confirmed as storable. */
export const CONFIRM_MESSAGE =
  "Tick the box to confirm that this prompt text may be stored in the constitution.";

/**
 * Accepting a label: stored as a new version on top of `baseVersionId` (the version its
 * preview was made on), only once the editor confirmed that the prompt may be stored.
 */
export const acceptLabelSchema = labelFields
  .extend({
    baseVersionId: z.number().int().positive(),
    confirmed: z.literal(true, { error: CONFIRM_MESSAGE }),
  })
  .superRefine(needsPrinciple);
export type AcceptLabelInput = z.input<typeof acceptLabelSchema>;
export type AcceptedLabel = z.output<typeof acceptLabelSchema>;

/** Removing the reviewed case of `prompt` from the version in force (`baseVersionId`). */
export const removeLabelSchema = z.object({
  prompt: z.string().trim().min(1, "Name the prompt whose label to remove."),
  baseVersionId: z.number().int().positive(),
});

/** What the label form offers: the version in force, its principles and its overlay domains. */
export type LabelChoices = {
  versionId: number;
  principles: { id: string; title: string }[];
  domains: string[];
};

/** A label's draft: the reviewed file's new text on `baseVersionId`, and its case before and after. */
export type LabelDraftView = {
  baseVersionId: number;
  path: string;
  text: string;
  change: "added" | "updated";
  case: EvalCaseFields;
  before: EvalCaseFields | null;
};

/** The reviewed cases of the version in force, as the Evals page lists them. */
export type ReviewedLabels = { versionId: number; labels: ReviewedCase[] };
