import { parseWith } from "@/lib/json-reply";
import type { ResolvedPrinciple } from "./conflict";
import type { ConstitutionStoreConfig } from "./config";
import {
  agentMessages,
  agentReplySchema,
  prefilterMessages,
  prefilterReplySchema,
  readAgentReply,
  readPrefilterReply,
} from "./llm-prompts";
import { failureReason, pool, type LlmPort } from "./llm-port";
import type { RequestContext } from "./prefilter-cache";
import type { DetectedDomain, Fallback } from "./retrieval-types";
import type { Candidate } from "./selection";

/**
 * The two LLM stages of retrieval (docs/spec/constitution-store.md, Retrieval): the
 * prefilter picks domains, one agent per domain picks principles. Each stage that fails
 * (an error, a timeout, an unparseable reply) records a fallback and uses the lexical answer.
 */

/** What both stages need: the port, the settings, the prompt and where to record fallbacks. */
export type LlmStage = {
  llm: LlmPort;
  config: ConstitutionStoreConfig;
  prompt: string;
  ctx: RequestContext;
  fallbacks: Fallback[];
};

const CORE_AGENT = "core";

/** The prefilter call over the `shown` overlays; `fromLexical` when it fails. */
export async function llmPrefilter(
  s: LlmStage,
  shown: Parameters<typeof prefilterMessages>[1],
  fromLexical: DetectedDomain[],
  calls: { prefilter: number },
): Promise<DetectedDomain[]> {
  calls.prefilter++;
  try {
    const reply = await s.llm.complete({
      component: "prefilter",
      model: s.config.prefilter_model,
      messages: prefilterMessages(s.prompt, shown, s.config.max_prefilter_domains),
      json: true,
      timeoutMs: s.config.llm_timeout_ms,
      ...s.ctx,
    });
    const parsed = parseWith(reply.text, prefilterReplySchema);
    s.llm.recordParse?.({ component: "prefilter", ...s.ctx }, parsed.contract);
    if (!parsed.ok) {
      s.fallbacks.push({
        stage: "prefilter",
        reason: `unparseable reply (${parsed.contract.failures.map((f) => `${f.parser}: ${f.reason}`).join("; ")}): used the lexical domains`,
      });
      return fromLexical;
    }
    const known = new Set(shown.map((o) => o.domain));
    return readPrefilterReply(parsed.value, known, s.config.max_prefilter_domains).map((d) => ({
      ...d,
      source: "llm" as const,
    }));
  } catch (error) {
    s.fallbacks.push({
      stage: "prefilter",
      reason: `${failureReason(error)}: used the lexical domains`,
    });
    return fromLexical;
  }
}

/** One agent for the core principles and one per detected domain, at most `max_parallel_agents` at a time. */
export async function runDomainAgents(
  s: LlmStage,
  inForce: readonly ResolvedPrinciple[],
  domains: DetectedDomain[],
  calls: { domain_agent: number },
  lexicalPick: (principles: readonly ResolvedPrinciple[]) => Candidate[],
): Promise<Candidate[]> {
  const groups = [CORE_AGENT, ...domains.map((d) => d.domain)].map((name) => ({
    name,
    principles: inForce.filter((p) => p.overlay === (name === CORE_AGENT ? null : name)),
  }));
  const results = await pool(
    groups.map((group) => async (): Promise<Candidate[]> => {
      if (group.principles.length === 0) return [];
      calls.domain_agent++;
      const fallback = (reason: string) => {
        s.fallbacks.push({
          stage: "domain_agent",
          domain: group.name,
          reason: `${reason}: used the lexical ranking`,
        });
        return lexicalPick(group.principles);
      };
      try {
        const reply = await s.llm.complete({
          component: "domain_agent",
          model: s.config.agent_model,
          messages: agentMessages(
            s.prompt,
            group.name,
            group.principles,
            s.config.use_enhanced_retrieval,
          ),
          json: true,
          timeoutMs: s.config.llm_timeout_ms,
          ...s.ctx,
        });
        const parsed = parseWith(reply.text, agentReplySchema);
        s.llm.recordParse?.({ component: "domain_agent", ...s.ctx }, parsed.contract);
        if (!parsed.ok)
          return fallback(
            `unparseable reply (${parsed.contract.failures.map((f) => `${f.parser}: ${f.reason}`).join("; ")})`,
          );
        const byId = new Map(group.principles.map((p) => [p.id, p]));
        return readAgentReply(parsed.value, new Set(byId.keys()))
          .filter((r) => r.confidence >= s.config.confidence_threshold)
          .map((r) => ({
            principle: byId.get(r.id)!,
            relevance: r.confidence,
            why: {
              via: "llm" as const,
              domain: group.name === CORE_AGENT ? null : group.name,
              domain_confidence: null,
              own: r.confidence,
              matched_terms: [],
              matched_phrases: [],
              semantic: null,
            },
          }));
      } catch (error) {
        return fallback(failureReason(error));
      }
    }),
    s.config.max_parallel_agents,
  );
  return results.flat();
}
