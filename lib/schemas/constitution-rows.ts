import { z } from "zod";
import {
  LEARNED_FORMAT,
  THRESHOLDS,
  type ConstitutionFile,
  type LearnedModel,
  type EvalFailure,
  type EvalMetrics,
  type ThresholdName,
  type ThresholdResult,
} from "@/lib/constitution";

/** A stored constitution version without its files. */
export type VersionMeta = {
  id: number;
  contentHash: string;
  authorLabel: string;
  message: string;
  parentId: number | null;
  createdAt: Date;
};

/** "lexical", or "hybrid:<embedding model>" (a run depends on the model). */
export type EvalPath = "lexical" | `hybrid:${string}`;

/** A stored eval run: the report without its per-case rows. */
export type EvalRun = {
  versionId: number;
  path: EvalPath;
  passed: boolean;
  caseCount: number;
  metrics: EvalMetrics;
  thresholds: ThresholdResult[];
  failures: EvalFailure[];
  createdAt: Date;
};

/** constitution_version.files: the version's file set. */
export const constitutionFilesSchema = z.array(
  z.object({ path: z.string(), text: z.string() }),
) satisfies z.ZodType<ConstitutionFile[]>;

/** constitution_eval_run.path. */
export const evalPathSchema = z.custom<EvalPath>(
  (v) => typeof v === "string" && (v === "lexical" || v.startsWith("hybrid:")),
  'must be "lexical" or "hybrid:<model>"',
);

/** constitution_eval_run.metrics. */
export const evalMetricsSchema = z.object({
  cases: z.number(),
  domain_cases: z.number(),
  domain_recall_at_1: z.number(),
  domain_recall_at_3: z.number(),
  principle_cases: z.number(),
  principle_hit_rate: z.number(),
  benign_cases: z.number(),
  false_injection_rate: z.number(),
  trap_cases: z.number(),
  trap_rate: z.number(),
  mean_principles: z.number(),
  mean_chars: z.number(),
  latency_ms: z.object({ p50: z.number(), p99: z.number() }),
}) satisfies z.ZodType<EvalMetrics>;

/** constitution_eval_run.thresholds. */
export const thresholdResultsSchema = z.array(
  z.object({
    name: z.enum(Object.keys(THRESHOLDS) as [ThresholdName, ...ThresholdName[]]),
    limit: z.number(),
    direction: z.enum(["min", "max"]),
    value: z.number(),
    ok: z.boolean(),
  }),
) satisfies z.ZodType<ThresholdResult[]>;

/** constitution_eval_run.failures. */
export const evalFailuresSchema = z.array(
  z.object({
    kind: z.enum(["domain_miss", "principle_miss", "false_injection", "trap"]),
    prompt: z.string(),
    file: z.string(),
    line: z.number(),
    message: z.string(),
  }),
) satisfies z.ZodType<EvalFailure[]>;

/** One version with its eval run, as `evalHistory` (lib/services/constitution-eval.ts) gives it. */
export type EvalHistoryEntry = {
  versionId: number;
  createdAt: Date;
  message: string;
  authorLabel: string;
  current: boolean;
  run: EvalRun;
};

const linearModelSchema = z.object({ bias: z.number(), weights: z.record(z.string(), z.number()) });

/** constitution_model.model: the learned term weights of lib/constitution/learn.ts. */
export const learnedModelSchema = z.object({
  format: z.literal(LEARNED_FORMAT),
  cases: z.number(),
  domains: z.record(z.string(), linearModelSchema),
  principles: z.record(z.string(), linearModelSchema),
  prompts: z.record(
    z.string(),
    z.object({
      domains: z.array(z.string()),
      expect: z.array(z.string()),
      forbid: z.array(z.string()),
    }),
  ),
}) satisfies z.ZodType<LearnedModel>;

/** A version's learned term weights, with the eval's metrics on the keywords alone and cross-validated (constitution_model). */
export type StoredModel = {
  versionId: number;
  model: LearnedModel;
  folds: number;
  keywords: EvalMetrics;
  crossValidated: EvalMetrics;
  fitMs: number;
  createdAt: Date;
};

/** What the Evals page shows of a version's learned weights. */
export type LearnedStatus =
  | { state: "fitted"; fit: StoredModel }
  | { state: "pending" }
  | { state: "failed"; error: string }
  | { state: "none" };
