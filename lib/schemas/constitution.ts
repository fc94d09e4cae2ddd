import { z } from "zod";
import type { EvalComparison, EvalMetrics, EvalReport, ReplayImpact } from "@/lib/constitution";
import { formatBytes, MAX_FILE_BYTES, utf8Length } from "@/lib/constitution/limits";
import { domainNameSchema } from "@/lib/constitution/schema";

/** Why a file's text is over the CLI's per-file limit, or null when it is within it. */
export function fileTooLarge(text: string): string | null {
  const bytes = utf8Length(text);
  return bytes > MAX_FILE_BYTES
    ? `The file is ${formatBytes(bytes)}; a constitution file may hold at most ${formatBytes(MAX_FILE_BYTES)}.`
    : null;
}

/**
 * A file's text from an editor: the CLI's per-file limit, refused before the server
 * fetches anything (the whole constitution's limits are checked when it is parsed).
 * The editors show the same reason at the text itself, as it is typed.
 */
const fileTextSchema = z.string().superRefine((text, ctx) => {
  const reason = fileTooLarge(text);
  if (reason) ctx.addIssue({ code: "custom", message: reason });
});

/**
 * Saving one file's YAML on top of a base version: the fields every file editor sends,
 * checked by the editors' save panel and, extended per file, by the server actions.
 */
export const saveFileSchema = z.object({
  text: fileTextSchema,
  baseVersionId: z.number().int().positive(),
  message: z
    .string()
    .trim()
    .min(1, "Say what changed and why.")
    .max(500, "Keep the message under 500 characters."),
});
export type SaveFileInput = z.input<typeof saveFileSchema>;

/** Saving `core.yaml` as a new version: shared by the core editor and the server action. */
export const saveCoreSchema = saveFileSchema;

/** Saving one overlay's YAML as a new version: shared by the editor and the server action. */
export const saveOverlaySchema = saveFileSchema.extend({ domain: domainNameSchema });

export const rollbackSchema = z.object({
  toVersionId: z.number().int().positive(),
  baseVersionId: z.number().int().positive(),
  message: z.string().trim().max(500).optional(),
});

export const retrieveSchema = z.object({
  prompt: z
    .string()
    .trim()
    .min(1, "Enter a prompt.")
    .max(20_000, "Keep the prompt under 20,000 characters."),
  topK: z.number().int().min(1).max(100).optional(),
  domain: domainNameSchema.optional(),
});

/** A constitution file an editor may change: core.yaml, an overlay or an eval file. */
export const constitutionPathSchema = z
  .string()
  .regex(
    /^(core\.yaml|overlays\/[a-z][a-z0-9_]*\.ya?ml|eval\/[A-Za-z0-9_-]+\.ya?ml)$/,
    "must be core.yaml, overlays/<domain>.yaml or eval/<name>.yaml",
  );

/** How many stored prompts an impact preview replays: by default, and at most. */
export const DEFAULT_REPLAY = 500;
export const MAX_REPLAY = 5000;

/** An impact preview: what saving `text` as `path` on top of `baseVersionId` would change. */
export const previewChangeSchema = z.object({
  baseVersionId: z.number().int().positive(),
  path: constitutionPathSchema,
  text: fileTextSchema,
  replay: z.number().int().min(0).max(MAX_REPLAY).optional(),
});

/** What saving a draft would change (lib/services/constitution-eval.ts previewChange), as the impact panel shows it. */
export type ImpactPreview = {
  baseVersionId: number;
  /** The draft's eval set run on the base version and on the draft. */
  eval: EvalComparison;
  draft: Pick<EvalReport, "metrics" | "thresholds" | "passed" | "failures">;
  /** The latest stored prompts replayed under the base version and the draft, each with its learned weights. */
  replay: ReplayImpact;
  /**
   * The learned weights: the draft's eval set cross-validated on the draft (what a new
   * label or a refit changes), beside the base version's own cross-validated figures
   * (null while the base has no fit).
   */
  learned: { base: EvalMetrics | null; draft: EvalMetrics; folds: number };
  ms: number;
};
