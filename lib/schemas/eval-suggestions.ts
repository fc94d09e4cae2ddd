import { z } from "zod";
import type { CaseSuggestions } from "@/lib/constitution/suggest";

/** Asking for a suggestion: the eval case at `file:line` of a version's eval set. */
export const suggestEvalFixSchema = z.object({
  versionId: z.number().int().positive(),
  file: z.string().regex(/^eval\/[A-Za-z0-9_-]+\.ya?ml$/, "must be an eval file, eval/<name>.yaml"),
  line: z.number().int().positive(),
});
export type SuggestEvalFixInput = z.input<typeof suggestEvalFixSchema>;

/** A case's suggestions as the Evals page shows them: against which version, and how long the search took. */
export type EvalSuggestions = CaseSuggestions & { versionId: number; ms: number };
