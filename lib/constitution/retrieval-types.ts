import type { ResolvedPrinciple } from "./conflict";
import type { SemanticSimilarities } from "./hybrid";
import type { DomainHit } from "./lexical";
import type { RequestContext } from "./prefilter-cache";
import type { Why } from "./selection";

/** What retrieval returns: detected domains, retrieved principles and the debug record. */

export type DetectedDomain = { domain: string; confidence: number; source: "lexical" | "llm" };
export type RetrievedPrinciple = Pick<
  ResolvedPrinciple,
  "id" | "title" | "rule" | "level" | "priority" | "domain" | "overlay"
> & {
  confidence: number;
  source: "lexical" | "llm";
  /** Why it was chosen: matched terms and phrases, and the domain that carried it. */
  why: Why;
  /** Characters its line takes in the injected context. */
  chars: number;
};
export type Fallback = {
  stage: "prefilter" | "domain_agent" | "embeddings";
  domain?: string;
  reason: string;
};

export type DebugInfo = {
  /** "hybrid": lexical with the semantic step; "lexical" also when the semantic step failed (see fallbacks). */
  path: "lexical" | "hybrid" | "llm";
  prefilter_cache_status: "hit" | "miss" | "disabled";
  domains_considered: string[];
  lexical_domains: DomainHit[];
  detected_domains: DetectedDomain[];
  timings_ms: { prefilter: number; agents: number; total: number };
  /** Characters of the chosen principles' lines, and the soft principles dropped to stay within the budget. */
  context: { chars: number; budget_chars: number; dropped_for_budget: string[] };
  llm_calls: { prefilter: number; domain_agent: number };
  fallbacks: Fallback[];
  /** What retrieval set aside: a domain with no overlay or an excluded one, a principle's definition not used (overlay.ts). */
  warnings: string[];
  cache: { fingerprint: string; size: number; hits: number; misses: number; invalidations: number };
  retrieval_openai_client_pooling: Record<string, { created: number; reused: number }>;
};

export type Retrieval = {
  domains: DetectedDomain[];
  principles: RetrievedPrinciple[];
  debug: DebugInfo;
};

/** The semantic step: the prompt's cosine similarity to each domain and principle (throws when the endpoint fails). */
export type SemanticPort = {
  similarities(prompt: string, ctx: RequestContext): Promise<SemanticSimilarities>;
};
