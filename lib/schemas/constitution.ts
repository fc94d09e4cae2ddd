import { z } from "zod";
import { domainNameSchema } from "@/lib/constitution/schema";

/** Saving one overlay's YAML as a new version: shared by the editor and the server action. */
export const saveOverlaySchema = z.object({
  domain: domainNameSchema,
  text: z.string().max(512 * 1024, "The overlay is too large (512 KiB at most)."),
  baseVersionId: z.number().int().positive(),
  message: z.string().trim().min(1, "Say what changed and why.").max(500, "Keep the message under 500 characters."),
});
export type SaveOverlayInput = z.input<typeof saveOverlaySchema>;

export const rollbackSchema = z.object({
  toVersionId: z.number().int().positive(),
  baseVersionId: z.number().int().positive(),
  message: z.string().trim().max(500).optional(),
});

export const retrieveSchema = z.object({
  prompt: z.string().trim().min(1, "Enter a prompt.").max(20_000, "Keep the prompt under 20,000 characters."),
  topK: z.number().int().min(1).max(100).optional(),
  domain: domainNameSchema.optional(),
});
export type RetrieveInput = z.input<typeof retrieveSchema>;

/** A constitution file an editor may change: core.yaml, an overlay or an eval file. */
export const constitutionPathSchema = z
  .string()
  .regex(/^(core\.yaml|overlays\/[a-z][a-z0-9_]*\.ya?ml|eval\/[A-Za-z0-9_-]+\.ya?ml)$/, "must be core.yaml, overlays/<domain>.yaml or eval/<name>.yaml");

/** How many stored prompts an impact preview replays: by default, and at most. */
export const DEFAULT_REPLAY = 500;
export const MAX_REPLAY = 5000;

/** An impact preview: what saving `text` as `path` on top of `baseVersionId` would change. */
export const previewChangeSchema = z.object({
  baseVersionId: z.number().int().positive(),
  path: constitutionPathSchema,
  text: z.string().max(512 * 1024, "The file is too large (512 KiB at most)."),
  replay: z.number().int().min(0).max(MAX_REPLAY).optional(),
});
export type PreviewChangeInput = z.input<typeof previewChangeSchema>;
