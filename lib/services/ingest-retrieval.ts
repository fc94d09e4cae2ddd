import { eventBatches } from "@/lib/db/ingest";
import { retrievalPath } from "@/lib/env";
import type { AgentEvent } from "@/lib/schemas/events";
import { currentStore } from "./constitution";
import { delivery, type Retrieved } from "./ingest-plan";
import { principlesContext, sessionContext } from "@/lib/constitution";
import { brief } from "./retrieval-protocol";
import { retrieveLexicalMany } from "./retrieval-pool";

/** A request's events with its prompts' retrieval done, before any transaction: what a group applies. */
export type PreparedEvents = {
  events: AgentEvent[];
  source: string;
  /** When the request arrived: the time of its events that carry none. */
  now: string;
  retrieved: Map<string, Retrieved>;
};

/**
 * Retrieval for the prompts of a request, before its transaction, on the version in
 * force. A prompt whose answer reaches the agent takes the configured path (which may
 * ask a model); one that never reaches it (spooled, imported) is kept as "would have
 * injected" from the lexical path alone, which costs no model call. Where a delivered
 * prompt would cost a model call, one recorded before is found first and not retrieved
 * again. A large batch's lexical retrievals run on the worker pool (retrieval-pool.ts).
 */
export async function retrieveFor(
  events: AgentEvent[],
  source: string,
): Promise<Map<string, Retrieved>> {
  const out = new Map<string, Retrieved>();
  const firstIndex = new Map<string, number>();
  events.forEach((e, i) => firstIndex.has(e.id) || firstIndex.set(e.id, i));
  const prompts = events.flatMap((event, i) =>
    event.type === "UserPromptSubmit" && firstIndex.get(event.id) === i
      ? [{ event, delivered: delivery(event, source) === "delivered" }]
      : [],
  );
  const starts = events.filter((e, i) => e.type === "SessionStart" && firstIndex.get(e.id) === i);
  if (prompts.length === 0 && starts.length === 0) return out;
  const { store, version } = await currentStore();
  if (starts.length) {
    const hard = store.getConstitution([]).filter((p) => p.level === "hard");
    const started: Retrieved = {
      principles: brief(hard.map((p) => ({ ...p, confidence: 1 }))),
      context: sessionContext(version.id, hard),
      version: version.id,
    };
    for (const event of starts) out.set(event.id, started);
  }
  if (prompts.length === 0) return out;
  const asksModel = retrievalPath() !== "lexical";
  const costly = asksModel ? prompts.filter((p) => p.delivered).map((p) => p.event.id) : [];
  const seen = costly.length ? await eventBatches.seenEvents(costly) : new Map();
  const todo = prompts.filter((p) => !seen.has(p.event.id));
  // On the lexical path every prompt takes store.retrieveLexical (the same principles as
  // getRelevantPrinciples, without the prefilter cache, which saves only model calls).
  const lexical = todo.filter((p) => !p.delivered || !asksModel).map((p) => p.event);
  const found = await retrieveLexicalMany(
    store,
    version.id,
    lexical.map((e) => e.prompt),
  );
  lexical.forEach((event, i) => out.set(event.id, { ...found[i]!, version: version.id }));
  for (const { event } of todo.filter((p) => p.delivered && asksModel)) {
    const { principles } = await store.getRelevantPrinciples(event.prompt, { requestId: event.id });
    out.set(event.id, {
      principles: brief(principles),
      context: principlesContext(version.id, principles),
      version: version.id,
    });
  }
  return out;
}
