import type { Constitution, ConstitutionStoreConfig, LearnedModel } from "@/lib/constitution";
import type { EventResult } from "@/lib/schemas/events";

/** A principle as an event's answer names it. */
export type BriefPrinciple = NonNullable<EventResult["principles"]>[number];

/** The fields of retrieved principles that an event's answer carries. */
export function brief(principles: readonly BriefPrinciple[]): BriefPrinciple[] {
  return principles.map((p) => ({
    id: p.id,
    title: p.title,
    level: p.level,
    priority: p.priority,
    confidence: p.confidence,
  }));
}

/** What the pool sends a retrieval worker: prompts under a version (with the version itself when the worker lacks it). */
export type RetrievalJob = {
  id: number;
  versionId: number;
  load?: { constitution: Constitution; config: ConstitutionStoreConfig; learned?: LearnedModel };
  prompts: string[];
};

/** One prompt's retrieval: its principles, and the text the agent is given for them. */
export type PromptRetrieval = { principles: BriefPrinciple[]; context: string };

/** A worker's answer: each prompt's retrieval, in the prompts' order, or why it failed. */
export type RetrievalReply =
  { id: number; found: PromptRetrieval[] } | { id: number; error: string };
