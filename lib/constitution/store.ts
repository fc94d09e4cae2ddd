import type { ResolvedPrinciple } from "./conflict";
import {
  storeConfig,
  type ConstitutionStoreConfig,
  type ConstitutionStoreConfigInput,
} from "./config";
import type { SemanticSimilarities } from "./hybrid";
import { isEmptyModel, readPrompt, type LearnedModel, type LearnedReading } from "./learn";
import { LexicalIndex, type DomainHit } from "./lexical";
import { failureReason, type LlmPort } from "./llm-port";
import { llmPrefilter, runDomainAgents } from "./llm-stages";
import { resolveConstitution } from "./overlay";
import { PrefilterCache, type OrchestrationEvent, type RequestContext } from "./prefilter-cache";
import type {
  DebugInfo,
  DetectedDomain,
  Fallback,
  Retrieval,
  RetrievedPrinciple,
  SemanticPort,
} from "./retrieval-types";
import type { Constitution } from "./schema";
import type { Candidate } from "./selection";
import { pickLexically, rankDomains, toRetrieved } from "./lexical-stage";

export type {
  DebugInfo,
  DetectedDomain,
  Fallback,
  Retrieval,
  RetrievedPrinciple,
  SemanticPort,
} from "./retrieval-types";

type Deps = {
  llm?: LlmPort;
  semantic?: SemanticPort;
  onEvent?: (event: OrchestrationEvent) => void;
  now?: () => number;
  /** The constitution's lexical index, built before (from a snapshot, say); default: built here. */
  index?: LexicalIndex;
  /** Term weights learned from the eval set (learn.ts); none: the lexical path alone. */
  learned?: LearnedModel;
};

const round = (ms: number) => Math.round(ms * 100) / 100;

/**
 * The constitution store (the constitution-store spec's ConstitutionStore as a facade): overlay
 * application, domain detection and principle retrieval over one constitution.
 * The lexical path always runs (it is the prefilter's first stage and the
 * fallback); with `use_llm_matching` and an LlmPort, a prefilter call picks the
 * domains and one agent per domain picks principles, in parallel.
 */
export class ConstitutionStore {
  readonly config: ConstitutionStoreConfig;
  /** The lexical index, for a cache to keep (`toSnapshot`). */
  readonly index: LexicalIndex;
  /** The learned term weights in use, if any. */
  readonly learned: LearnedModel | undefined;
  private readonly cache: PrefilterCache<DetectedDomain[]>;
  private readonly now: () => number;
  private lastDebug: DebugInfo | null = null;
  /** Principles in force by set of domains (see inForce). */
  private readonly resolved = new Map<
    string,
    { principles: readonly ResolvedPrinciple[]; warnings: readonly string[] }
  >();

  constructor(
    readonly constitution: Constitution,
    config: ConstitutionStoreConfigInput = {},
    private readonly deps: Deps = {},
  ) {
    this.config = storeConfig(config);
    this.index = deps.index ?? new LexicalIndex(constitution);
    this.learned = isEmptyModel(deps.learned) ? undefined : deps.learned;
    this.now = deps.now ?? (() => performance.now());
    this.cache = new PrefilterCache(this.config.prefilter_cache_size, deps.onEvent);
    this.setDomainKeywords(
      Object.fromEntries(Object.values(constitution.overlays).map((o) => [o.domain, o.keywords])),
    );
  }

  /** Sets the prefilter's keyword map; idempotent, clears the cache only when the map changes. */
  setDomainKeywords(
    map: Readonly<Record<string, readonly string[]>>,
    ctx: RequestContext = {},
  ): boolean {
    return this.cache.setDomainKeywords(map, ctx);
  }

  /**
   * The principles in force under the given domains, in precedence order (the constitution-store spec's
   * get_constitution): a domain with no overlay falls back to core; two domains that
   * define one id differently throw ConflictingDefinitionError (overlay.ts).
   */
  getConstitution(domains: string | readonly string[] | null = []): ResolvedPrinciple[] {
    return resolveConstitution(this.constitution, domains).principles;
  }

  private get usesLlm(): boolean {
    return this.config.use_llm_matching && this.deps.llm !== undefined;
  }

  /** The domains a prompt belongs to, best first (the constitution-store spec's detect_relevant_domains). */
  async detectRelevantDomains(prompt: string, ctx: RequestContext = {}): Promise<DetectedDomain[]> {
    return (await this.retrieve(prompt, { ...ctx, domainsOnly: true })).domains;
  }

  /**
   * The principles relevant to a prompt, in precedence order (the constitution-store spec's get_relevant_principles).
   * `domain` (one, or several) skips detection: a domain with no overlay falls back to core
   * with a warning in the debug info, and chosen domains that define one id differently
   * throw ConflictingDefinitionError. Detected domains never throw: see resolveConstitution.
   */
  async getRelevantPrinciples(
    prompt: string,
    options: { topK?: number; domain?: string | readonly string[] | null } & RequestContext = {},
  ): Promise<Retrieval> {
    return this.retrieve(prompt, options);
  }

  /** The debug info of the latest retrieval (the constitution-store spec's get_debug_info). */
  getDebugInfo(): DebugInfo | null {
    return this.lastDebug;
  }

  private async retrieve(
    prompt: string,
    options: {
      topK?: number;
      domain?: string | readonly string[] | null;
      domainsOnly?: boolean;
    } & RequestContext,
  ): Promise<Retrieval> {
    const started = this.now();
    const ctx = { runId: options.runId, requestId: options.requestId };
    const fallbacks: Fallback[] = [];
    const calls = { prefilter: 0, domain_agent: 0 };
    let sims: SemanticSimilarities | undefined;
    if (!this.usesLlm && this.deps.semantic) {
      try {
        sims = await this.deps.semantic.similarities(prompt, ctx);
      } catch (error) {
        fallbacks.push({
          stage: "embeddings",
          reason: `${failureReason(error)}: used the lexical path alone`,
        });
      }
    }
    const path = this.usesLlm ? "llm" : sims ? "hybrid" : "lexical";
    const learned = this.read(prompt);
    const { candidates, lexicalDomains } = rankDomains(
      this.index,
      this.config,
      prompt,
      sims,
      learned,
    );

    let cacheStatus: DebugInfo["prefilter_cache_status"] = "disabled";
    let domains: DetectedDomain[];
    const chosen = [
      ...new Set(typeof options.domain === "string" ? [options.domain] : (options.domain ?? [])),
    ].filter((d) => d !== "");
    if (chosen.length > 0) {
      domains = chosen.map((domain) => ({ domain, confidence: 1, source: "lexical" as const }));
    } else if (!this.config.use_domain_prefilter) {
      domains = [];
    } else {
      const key = `${path}\u0000${this.config.max_prefilter_domains}\u0000${prompt}`;
      const cached = this.cache.get(key, ctx);
      cacheStatus = cached ? "hit" : "miss";
      domains =
        cached ?? (await this.prefilter(prompt, candidates, lexicalDomains, ctx, fallbacks, calls));
      // A prefilter that fell back is not cached: the next request asks the model again.
      if (!cached && !fallbacks.some((f) => f.stage === "prefilter")) this.cache.set(key, domains);
    }
    const prefilterDone = this.now();

    let principles: RetrievedPrinciple[] = [];
    let dropped: string[] = [];
    let warnings: string[] = [];
    if (chosen.length > 0) {
      // Resolved before anything is returned, so two chosen domains that disagree on an id throw even for domainsOnly.
      warnings = resolveConstitution(this.constitution, chosen).warnings;
      domains = domains.filter(
        (d) =>
          this.constitution.overlays[d.domain] && !this.constitution.overlays[d.domain]!.excluded,
      );
    }
    if (!options.domainsOnly) {
      const resolved = this.inForce(domains, chosen.length > 0);
      warnings = [...warnings, ...resolved.warnings];
      const inForce = resolved.principles;
      const picked = this.usesLlm
        ? await this.runAgents(prompt, inForce, domains, ctx, fallbacks, calls, learned)
        : pickLexically(this.index, this.config, prompt, inForce, domains, sims, learned);
      ({ principles, dropped } = toRetrieved(this.config, picked, options.topK));
    }
    const finished = this.now();

    const debug: DebugInfo = {
      path,
      prefilter_cache_status: cacheStatus,
      domains_considered: (path === "llm" ? candidates : lexicalDomains).map((d) => d.domain),
      lexical_domains: lexicalDomains,
      detected_domains: domains,
      timings_ms: {
        prefilter: round(prefilterDone - started),
        agents: round(finished - prefilterDone),
        total: round(finished - started),
      },
      context: {
        chars: principles.reduce((n, p) => n + p.chars + 1, 0),
        budget_chars: this.config.context_budget_chars,
        dropped_for_budget: dropped,
      },
      llm_calls: calls,
      fallbacks,
      warnings,
      cache: {
        fingerprint: this.cache.currentFingerprint,
        size: this.cache.size,
        ...this.cache.counts,
      },
      retrieval_openai_client_pooling: this.deps.llm?.poolingStats() ?? {},
    };
    this.lastDebug = debug;
    return { domains, principles, debug };
  }

  /**
   * Lexical retrieval, synchronously, with no cache, LLM or debug record: what evals
   * and replays measure. Gives the same domains and principles as the lexical path.
   */
  retrieveLexical(
    prompt: string,
    options: { topK?: number; semantic?: SemanticSimilarities } = {},
  ): { domains: DetectedDomain[]; principles: RetrievedPrinciple[]; dropped: string[] } {
    const learned = this.read(prompt);
    const domains = this.config.use_domain_prefilter
      ? rankDomains(this.index, this.config, prompt, options.semantic, learned).lexicalDomains.map(
          (d) => ({
            domain: d.domain,
            confidence: d.confidence,
            source: "lexical" as const,
          }),
        )
      : [];
    const inForce = this.inForce(domains, false).principles;
    return {
      domains,
      ...toRetrieved(
        this.config,
        pickLexically(this.index, this.config, prompt, inForce, domains, options.semantic, learned),
        options.topK,
      ),
    };
  }

  /**
   * The principles in force under the domains, resolved once per set of domains (in order
   * of preference when detected): the constitution never changes under a store, and
   * prompts fall into few such sets. Chosen domains that define one id differently throw;
   * detected ones take the definition of the domain detected with higher confidence.
   */
  private inForce(
    domains: readonly DetectedDomain[],
    chosen: boolean,
  ): { principles: readonly ResolvedPrinciple[]; warnings: string[] } {
    const confidence = new Map(domains.map((d) => [d.domain, d.confidence]));
    const preferred = [...confidence.keys()].sort(
      (a, b) => confidence.get(b)! - confidence.get(a)! || a.localeCompare(b),
    );
    const key = `${chosen ? "chosen" : "detected"}\u0000${preferred.join("\u0000")}`;
    let hit = this.resolved.get(key);
    if (!hit) {
      const { principles, warnings } = resolveConstitution(
        this.constitution,
        preferred,
        chosen ? {} : { confidence },
      );
      this.resolved.set(
        key,
        (hit = {
          principles: Object.freeze(principles),
          warnings: Object.freeze(warnings) as string[],
        }),
      );
    }
    return { principles: hit.principles, warnings: [...hit.warnings] };
  }

  private async prefilter(
    prompt: string,
    candidates: DomainHit[],
    lexical: DomainHit[],
    ctx: RequestContext,
    fallbacks: Fallback[],
    calls: { prefilter: number },
  ): Promise<DetectedDomain[]> {
    const fromLexical = lexical.map((d) => ({
      domain: d.domain,
      confidence: d.confidence,
      source: "lexical" as const,
    }));
    const llm = this.deps.llm;
    if (!this.usesLlm || !llm) return fromLexical;
    // The lexical ranking orders the candidates; domains it did not match follow in name order.
    const ranked = [
      ...candidates.map((c) => c.domain),
      ...this.index
        .knownDomains()
        .filter((d) => !candidates.some((c) => c.domain === d))
        .sort(),
    ];
    const shown = ranked
      .slice(0, this.config.prefilter_candidates)
      .map((d) => this.constitution.overlays[d]!);
    return llmPrefilter(
      { llm, config: this.config, prompt, ctx, fallbacks },
      shown,
      fromLexical,
      calls,
    );
  }

  /** One agent for the core principles and one per detected domain (llm-stages.ts); a failed agent falls back to the lexical ranking. */
  private runAgents(
    prompt: string,
    inForce: readonly ResolvedPrinciple[],
    domains: DetectedDomain[],
    ctx: RequestContext,
    fallbacks: Fallback[],
    calls: { domain_agent: number },
    learned: LearnedReading | undefined,
  ): Promise<Candidate[]> {
    return runDomainAgents(
      { llm: this.deps.llm!, config: this.config, prompt, ctx, fallbacks },
      inForce,
      domains,
      calls,
      (principles) =>
        pickLexically(this.index, this.config, prompt, principles, domains, undefined, learned),
    );
  }

  /** The prompt as the learned model reads it (features, its own label), once per retrieval; none without a model. */
  private read(prompt: string): LearnedReading | undefined {
    return this.learned && readPrompt(this.learned, prompt);
  }
}
