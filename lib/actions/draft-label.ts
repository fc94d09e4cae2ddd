"use server";
import { labelSchema } from "@/lib/schemas/labels";
import { draftLabel } from "@/lib/services/review-labels";
import { defineAction } from "./client";

/**
 * A reviewer's label drafted on the version in force: the eval file's new text for the
 * impact preview, and the case before and after. Writes nothing.
 */
export const draftLabelAction = defineAction(
  { role: "editor", input: labelSchema },
  async (input, { actor }) => draftLabel(input, actor),
);
