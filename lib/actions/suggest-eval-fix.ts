"use server";
import { suggestEvalFixSchema } from "@/lib/schemas/eval-suggestions";
import { suggestEvalFix } from "@/lib/services/eval-suggestions";
import { defineAction } from "./client";

/**
 * Suggests the smallest edit that fixes a failing eval case without making another case
 * worse, as a diff to review. Writes nothing: applying it is an ordinary save.
 */
export const suggestEvalFixAction = defineAction(
  { role: "editor", input: suggestEvalFixSchema },
  async (input) => suggestEvalFix(input),
);
