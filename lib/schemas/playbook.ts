import { z } from "zod";
import { extractionResultSchema } from "@/lib/playbook/extraction";

/** A key point's name: Charter gives `kpt_NNN`, an imported file may hold any other name (kept as it is). */
const name = z
  .string()
  .min(1, "Name the key point.")
  .max(200, "Keep the name under 200 characters.");
const text = z
  .string()
  .trim()
  .min(1, "Write the key point.")
  .max(2000, "Keep it under 2,000 characters.");

/** Playbook forms and actions share these. */
export const addKeyPointSchema = z.object({ text });
export const editKeyPointSchema = z.object({ name, text });
export const pruneDecisionSchema = z.object({
  names: z.array(name).min(1, "Pick at least one key point.").max(500),
});
export const undoPruneSchema = z.object({ name });
/** A playbook.json's text, in any of the playbook spec's legacy formats. */
export const importPlaybookSchema = z.object({
  text: z
    .string()
    .min(1, "Choose a playbook.json file.")
    .max(5 * 1024 * 1024, "The file is over 5 MiB."),
});
/** An ExtractionResult pasted by hand (the reflector's output format), optionally tied to a session; malformed items become warnings. */
export const applyExtractionSchema = z.object({
  extraction: extractionResultSchema,
  sessionId: z.string().trim().min(1).optional(),
});
export const reflectSessionSchema = z.object({ sessionId: z.string().min(1) });
