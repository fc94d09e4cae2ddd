import { z } from "zod";
import { extractionResultSchema, KEYPOINT_NAME } from "@/lib/playbook/schema";

const name = z.string().regex(KEYPOINT_NAME, "must look like kpt_001");
const text = z.string().trim().min(1, "Write the key point.").max(2000, "Keep it under 2,000 characters.");

/** Playbook forms and actions share these. */
export const addKeyPointSchema = z.object({ text });
export const editKeyPointSchema = z.object({ name, text });
export const pruneDecisionSchema = z.object({ names: z.array(name).min(1, "Pick at least one key point.").max(500) });
export const undoPruneSchema = z.object({ name });
/** A playbook.json's text, in any of seed 004's legacy formats. */
export const importPlaybookSchema = z.object({ text: z.string().min(1, "Choose a playbook.json file.").max(5 * 1024 * 1024, "The file is over 5 MiB.") });
/** An ExtractionResult pasted by hand (the reflector's output format), optionally tied to a session. */
export const applyExtractionSchema = z.object({ extraction: extractionResultSchema, sessionId: z.string().trim().min(1).optional() });
export const reflectSessionSchema = z.object({ sessionId: z.string().min(1) });
