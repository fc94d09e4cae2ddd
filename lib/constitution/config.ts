import { z } from "zod";

/**
 * The store's settings, like the constitution-store spec's ConstitutionStoreConfig: every field has a
 * default, so `{}` is a whole config. Unknown fields are rejected.
 */
export const constitutionStoreConfigSchema = z.strictObject({
  /** Use the LLM prefilter and domain agents (needs an LlmPort); otherwise the lexical path. */
  use_llm_matching: z.boolean().default(false),
  /** Narrow domains before ranking principles (two-stage retrieval). */
  use_domain_prefilter: z.boolean().default(true),
  /** The most domains a prompt is matched to. */
  max_prefilter_domains: z.number().int().min(1).max(50).default(3),
  /** How many lexically ranked domains the LLM prefilter is shown (the lexical first stage). */
  prefilter_candidates: z.number().int().min(1).max(100).default(20),
  /** Domain agents run at most this many at once (env CHARTER_CONSTITUTION_MAX_PARALLEL_AGENTS). */
  max_parallel_agents: z.number().int().min(1).max(32).default(2),
  /** Enhanced agents return principles with confidences; legacy ones return ids only. */
  use_enhanced_retrieval: z.boolean().default(true),
  /** LLM-picked principles below this confidence are dropped. */
  confidence_threshold: z.number().min(0).max(1).default(0.5),
  /** Lexically detected domains below this confidence are dropped: "no overlay applies" is a normal answer. */
  lexical_min_confidence: z.number().min(0).max(1).default(0.5),
  /** Lexically detected domains scoring below this share of the best domain's score are dropped. */
  lexical_relative_cutoff: z.number().min(0).max(1).default(0.4),
  /** A principle is injected only when its relevance to the prompt reaches this (lexical path). */
  principle_min_relevance: z.number().min(0).max(1).default(0.5),
  /** How much a detected domain's confidence carries its principles before their own match (see selection.ts). */
  domain_carry: z.number().min(0).max(1).default(0.5),
  /** What a detected domain brings when none of its principles was chosen on its own (see selection.ts). */
  domain_brings: z.enum(["off", "matched", "any"]).default("off"),
  /** The most principles retrieved per prompt, unless a call says otherwise (a cap, not a quota). */
  top_k: z.number().int().min(1).max(200).default(10),
  /** Semantic step (when embeddings are configured): cosine similarity that counts as no evidence ... */
  semantic_floor: z.number().min(-1).max(1).default(0.3),
  /** ... and similarity that counts as full evidence (linear between). Calibrate with `charter constitution eval --semantic`. */
  semantic_ceiling: z.number().min(-1).max(1).default(0.6),
  /** How much the semantic step's evidence counts next to the lexical one (0 = not at all). */
  semantic_weight: z.number().min(0).max(1).default(0.8),
  /** Characters of principle lines injected per prompt; the least relevant soft principles are dropped first, never a hard one. */
  context_budget_chars: z.number().int().min(200).max(100_000).default(2400),
  prefilter_model: z.string().min(1).default("gpt-4o-mini"),
  agent_model: z.string().min(1).default("gpt-4o-mini"),
  /** Each LLM call is abandoned after this long, and the lexical result is used. */
  llm_timeout_ms: z.number().int().min(100).max(300_000).default(15_000),
  /** Prefilter results kept per keyword map (least recently used dropped first). */
  prefilter_cache_size: z.number().int().min(0).max(100_000).default(512),
});

export type ConstitutionStoreConfig = z.output<typeof constitutionStoreConfigSchema>;
export type ConstitutionStoreConfigInput = z.input<typeof constitutionStoreConfigSchema>;

/** A whole config from a partial one; throws a ZodError naming any bad field. */
export function storeConfig(input: ConstitutionStoreConfigInput = {}): ConstitutionStoreConfig {
  return constitutionStoreConfigSchema.parse(input);
}
