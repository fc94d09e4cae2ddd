import { eventBatches } from "@/lib/db/ingest";
import { retrievalPath } from "@/lib/env";
import type { AgentEvent } from "@/lib/schemas/events";
import { currentStore } from "./constitution";
import { delivery, type Retrieved, type UserPrompt } from "./ingest-plan";
import { principlesContext } from "@/lib/constitution";
import { brief } from "./retrieval-protocol";
import { lexicalRetrieval, POOL_THRESHOLD, retrieveLexicalMany } from "./retrieval-pool";

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
 * again. A large batch's lexical retrievals run on the worker pool (retrieval-pool.ts);
 * those record no prefilter-cache events.
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
  if (prompts.length === 0) return out;
  const asksModel = retrievalPath() !== "lexical";
  const costly = asksModel ? prompts.filter((p) => p.delivered).map((p) => p.event.id) : [];
  const seen = costly.length ? await eventBatches.seenEvents(costly) : new Map();
  const todo = prompts.filter((p) => !seen.has(p.event.id));
  const { store, version } = await currentStore();
  const pooled: UserPrompt[] =
    todo.length >= POOL_THRESHOLD
      ? todo.filter((p) => !p.delivered || !asksModel).map((p) => p.event)
      : [];
  const inPool = new Set(pooled.map((e) => e.id));
  const found = await retrieveLexicalMany(
    store,
    version.id,
    pooled.map((e) => e.prompt),
  );
  pooled.forEach((event, i) => out.set(event.id, { ...found[i]!, version: version.id }));
  for (const { event, delivered } of todo) {
    if (inPool.has(event.id)) continue;
    if (!delivered) {
      out.set(event.id, {
        ...lexicalRetrieval(store, version.id, event.prompt),
        version: version.id,
      });
      continue;
    }
    const { principles } = await store.getRelevantPrinciples(event.prompt, { requestId: event.id });
    out.set(event.id, {
      principles: brief(principles),
      context: principlesContext(version.id, principles),
      version: version.id,
    });
  }
  return out;
}
