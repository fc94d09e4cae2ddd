import { principlesContext } from "@/lib/constitution";
import { credits } from "@/lib/db/credit";
import { eventBatches } from "@/lib/db/ingest";
import { jobs } from "@/lib/db/jobs";
import { keyPoints } from "@/lib/db/key-points";
import { scores } from "@/lib/db/scores";
import { inTransaction } from "@/lib/db/transaction";
import { weightSets } from "@/lib/db/weights";
import { env } from "@/lib/env";
import type { AgentEvent, EventResult, EventsResponse } from "@/lib/schemas/events";
import { currentStore } from "./constitution";
import {
  BatchPlan,
  delivery,
  sessionTouches,
  stopFields,
  whenOf,
  type Retrieved,
  type UserPrompt,
} from "./ingest-plan";

export { capToolInput } from "./tool-input";

/**
 * Retrieval for the fresh prompts of a batch, before its transaction. A prompt whose
 * answer reaches the agent takes the configured path (which may ask a model); one
 * that never reaches it (spooled, imported) is kept as "would have injected" from
 * the lexical path alone, which costs no model call.
 */
async function retrieveAll(
  prompts: { event: UserPrompt; delivered: boolean }[],
): Promise<Map<string, Retrieved>> {
  const out = new Map<string, Retrieved>();
  if (prompts.length === 0) return out;
  const [{ store, version }, playbook] = await Promise.all([
    currentStore(),
    keyPoints.forInjection(env().CHARTER_PLAYBOOK_INJECT),
  ]);
  for (const { event, delivered } of prompts) {
    const principles = delivered
      ? (await store.getRelevantPrinciples(event.prompt, { requestId: event.id })).principles
      : store.retrieveLexical(event.prompt).principles;
    const context = [
      principlesContext(version.id, principles),
      playbook.text
        ? `Playbook: lessons from earlier sessions, with how often each helped or harmed (weigh them by that):\n${playbook.text}`
        : "",
    ].filter(Boolean);
    out.set(event.id, {
      principles: principles.map((p) => ({
        id: p.id,
        title: p.title,
        level: p.level,
        priority: p.priority,
        confidence: p.confidence,
      })),
      additional_context: context.join("\n\n"),
      version: version.id,
      keyPoints: playbook.names,
    });
  }
  return out;
}

/**
 * Applies agent events in order, in one transaction: all of a batch or none, in a
 * fixed number of statements whatever its size. An event whose id was seen before
 * is not applied again (its first result is returned), and is found before any
 * retrieval, so a replay costs no retrieval. A UserPromptSubmit replayed with
 * `context_delivered: false` after it was first recorded as delivered (the hook gave
 * up waiting for the answer) is corrected: its turn keeps no injected principles.
 */
export async function ingestEvents(
  events: AgentEvent[],
  options: { source?: string } = {},
): Promise<EventsResponse> {
  const source = options.source ?? "hook";
  const now = new Date().toISOString();
  const firstIndex = new Map<string, number>();
  events.forEach((e, i) => firstIndex.has(e.id) || firstIndex.set(e.id, i));
  // Ids seen before are found first only where it saves work: a prompt's retrieval.
  const promptIds = events.flatMap((e, i) =>
    e.type === "UserPromptSubmit" && firstIndex.get(e.id) === i ? [e.id] : [],
  );
  const seenBefore = promptIds.length ? await eventBatches.seenEvents(promptIds) : new Map();
  const prompts = events.flatMap((event, i) =>
    event.type === "UserPromptSubmit" && firstIndex.get(event.id) === i && !seenBefore.has(event.id)
      ? [{ event, delivered: delivery(event, source) === "delivered" }]
      : [],
  );
  const [weights, retrieved] = await Promise.all([weightSets.current(), retrieveAll(prompts)]);

  const { results, endedSessions } = await inTransaction(
    async (tx) => {
      await eventBatches.upsertSessions(tx, sessionTouches(events, now, source));
      // Looked up again under the sessions' locks: a concurrent batch may have recorded some since.
      const seen = await eventBatches.seenEvents([...firstIndex.keys()], tx);
      const fresh = events.filter((e, i) => firstIndex.get(e.id) === i && !seen.has(e.id));
      const plan = new BatchPlan(
        await eventBatches.latestTurns(tx, [...new Set(fresh.map((e) => e.session_id))]),
        retrieved,
        source,
      );
      for (const event of fresh) plan.apply(event, whenOf(event, now));

      const overrides = await scores.overridesOf(tx, [...plan.scored.keys()]);
      const scored = [...plan.scored.entries()].map(([turnId, s]) => {
        const columns = scores.columns({
          engine: s.engine,
          overrides: overrides.get(turnId) ?? {},
          reasoning: s.reasoning,
          weights,
          constitutionVersionId: s.constitutionVersionId,
        });
        for (const i of s.resultIndex)
          plan.results[i]!.score = {
            weighted_total: columns.weightedTotal,
            normalized_total: columns.normalizedTotal,
          };
        return { turnId, columns };
      });
      // A stop on a turn opened in this batch goes into its insert; the rest update stored turns.
      const opened = new Map(plan.newTurns.map((t) => [t.id, t]));
      await eventBatches.insertTurns(
        tx,
        plan.newTurns.map((t) => ({ ...t, ...stopFields(plan.stops.get(t.id)) })),
      );
      await eventBatches.stopTurns(
        tx,
        [...plan.stops.values()].filter((s) => !opened.has(s.id)),
      );
      await eventBatches.insertToolCalls(tx, plan.toolCalls);
      await scores.writeMany(tx, scored);
      await eventBatches.endSessions(tx, [...plan.ends.values()]);

      const undelivered = events.filter(
        (e, i): e is UserPrompt =>
          e.type === "UserPromptSubmit" &&
          e.context_delivered === false &&
          firstIndex.get(e.id) === i &&
          seen.has(e.id),
      );
      const corrected = await eventBatches.markUndelivered(
        tx,
        undelivered.flatMap((e) => {
          const turn = seen.get(e.id)?.result?.turn;
          return turn ? [{ session_id: e.session_id, number: turn }] : [];
        }),
      );
      // A corrected session that was credited before is credited again without those principles.
      const recredit = await credits.creditedAmong(tx, corrected);
      const outcomes = await credits.creditSessions(tx, [
        ...new Set([...plan.ends.keys(), ...recredit]),
      ]);
      fresh.forEach((event, i) => {
        const outcome = event.type === "SessionEnd" ? outcomes.get(event.session_id) : undefined;
        if (outcome) plan.results[i]!.outcome = { status: outcome.status, score: outcome.score };
      });
      await eventBatches.recordEvents(
        tx,
        fresh.map((e, i) => ({
          id: e.id,
          session_id: e.session_id,
          type: e.type,
          result: plan.results[i],
        })),
      );
      if (env().CHARTER_REFLECT_ON_SESSION_END)
        await jobs.queueReflections(tx, [...plan.ends.keys()]);

      const byId = new Map(plan.results.map((r) => [r.id, r]));
      const all = events.map((event, i): EventResult => {
        if (firstIndex.get(event.id) === i && byId.has(event.id)) return byId.get(event.id)!;
        const stored = seen.get(event.id)?.result ?? byId.get(event.id) ?? { id: event.id };
        return { ...stored, status: "duplicate" };
      });
      return { results: all, endedSessions: [...plan.ends.keys()] };
    },
    { timeout: 120_000, maxWait: 10_000 },
  );
  if (endedSessions.length && env().CHARTER_REFLECT_ON_SESSION_END)
    void import("./reflect").then(({ wakeReflectionWorker }) => wakeReflectionWorker());
  return {
    accepted: results.filter((r) => r.status === "accepted").length,
    duplicates: results.filter((r) => r.status === "duplicate").length,
    results,
  };
}
