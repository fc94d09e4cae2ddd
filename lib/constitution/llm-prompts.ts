import { z } from "zod";
import type { ChatMessage } from "./llm-port";
import type { Overlay, Principle } from "./schema";

/**
 * The prompts of the two LLM stages (docs/spec/constitution-store.md) and the shapes their replies must
 * have. Building a prompt is pure; lib/llm sends it.
 */

export const OBFUSCATION_INSTRUCTION =
  "Some requests embed verbatim segments in an arbitrary encoding or obfuscation (base64, hex, leetspeak, reversed or split words, ciphers). " +
  "Treat such segments as inspectable: when their substantive meaning can be recovered without inventing absent material, decode them and choose domains by that recovered substance. " +
  "When the material is opaque or cannot be recovered, prefer returning no domain over guessing the intent.";

/** One line per candidate domain: `- {domain}: {description}` plus a Keywords line, or a keywords-only line without a description. */
export function domainLine(overlay: Pick<Overlay, "domain" | "description" | "keywords">): string {
  const keywords = overlay.keywords.join(", ");
  if (!overlay.description) return `- ${overlay.domain}: Keywords: ${keywords}`;
  return keywords
    ? `- ${overlay.domain}: ${overlay.description}\n  Keywords: ${keywords}`
    : `- ${overlay.domain}: ${overlay.description}`;
}

/** The prefilter's messages: pick up to `max` domains for the request, as a JSON object. */
export function prefilterMessages(
  prompt: string,
  candidates: readonly Pick<Overlay, "domain" | "description" | "keywords">[],
  max: number,
): ChatMessage[] {
  return [
    {
      role: "system",
      content: [
        "You route a user's request to the domains of a constitution that governs an AI assistant.",
        `Choose at most ${max} domains from the list whose principles apply to the request, most relevant first. Respect each description's "NOT for:" scoping. Return an empty list when no domain applies.`,
        OBFUSCATION_INSTRUCTION,
        'Answer with a JSON object only: {"domains": [{"domain": "<name from the list>", "confidence": <0..1>}]}',
      ].join("\n\n"),
    },
    {
      role: "user",
      content: `Domains:\n${candidates.map(domainLine).join("\n")}\n\nRequest:\n${prompt}`,
    },
  ];
}

export const prefilterReplySchema = z.object({
  domains: z.array(
    z.union([
      z.string(),
      z.object({ domain: z.string(), confidence: z.number().min(0).max(1).optional() }),
    ]),
  ),
});

/** The prefilter's reply as domain/confidence pairs, keeping only known domains, at most `max`. */
export function readPrefilterReply(
  reply: z.infer<typeof prefilterReplySchema>,
  known: ReadonlySet<string>,
  max: number,
): { domain: string; confidence: number }[] {
  const seen = new Set<string>();
  const out: { domain: string; confidence: number }[] = [];
  for (const item of reply.domains) {
    const domain = (typeof item === "string" ? item : item.domain).trim().toLowerCase();
    if (!known.has(domain) || seen.has(domain)) continue;
    seen.add(domain);
    out.push({ domain, confidence: typeof item === "string" ? 1 : (item.confidence ?? 1) });
  }
  return out.slice(0, max);
}

/** A domain agent's messages. Principles are shown by id, level, title and rule; their keywords are metadata and are not sent (docs/spec/constitution-store.md). */
export function agentMessages(
  prompt: string,
  domain: string,
  principles: readonly Pick<Principle, "id" | "level" | "title" | "rule">[],
  enhanced: boolean,
): ChatMessage[] {
  const answer = enhanced
    ? 'Answer with a JSON object only: {"principles": [{"id": "<id from the list>", "confidence": <0..1>}]}'
    : 'Answer with a JSON object only: {"principle_ids": ["<id from the list>"]}';
  return [
    {
      role: "system",
      content: [
        `You decide which principles of the "${domain}" part of a constitution apply to a user's request to an AI assistant.`,
        "A principle applies when following or violating it is at stake in answering the request. Return an empty list when none applies.",
        OBFUSCATION_INSTRUCTION,
        answer,
      ].join("\n\n"),
    },
    {
      role: "user",
      content: `Principles:\n${principles.map((p) => `- ${p.id} [${p.level}] ${p.title}: ${p.rule}`).join("\n")}\n\nRequest:\n${prompt}`,
    },
  ];
}

export const agentReplySchema = z.union([
  z.object({
    principles: z.array(z.object({ id: z.string(), confidence: z.number().min(0).max(1) })),
  }),
  z.object({ principle_ids: z.array(z.string()) }),
]);

/** An agent's reply as id/confidence pairs for known ids (legacy ids-only replies count as confidence 1). */
export function readAgentReply(
  reply: z.infer<typeof agentReplySchema>,
  known: ReadonlySet<string>,
): { id: string; confidence: number }[] {
  const items =
    "principles" in reply
      ? reply.principles
      : reply.principle_ids.map((id) => ({ id, confidence: 1 }));
  const seen = new Set<string>();
  return items.filter((i) => known.has(i.id) && !seen.has(i.id) && seen.add(i.id));
}
