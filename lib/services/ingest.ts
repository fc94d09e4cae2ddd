import { credits } from "@/lib/db/credit";
import { eventBatches } from "@/lib/db/ingest";
import { jobs } from "@/lib/db/jobs";
import { scores } from "@/lib/db/scores";
import type { Sql } from "@/lib/db/ingest-sql";
import type { Tx } from "@/lib/db/transaction";
import { weightSets } from "@/lib/db/weights";
import { env } from "@/lib/env";
import { formatPlaybook } from "@/lib/playbook";
import type { AgentEvent, EventResult, EventsResponse } from "@/lib/schemas/events";
import { BatchPlan, claimOf, stopFields, whenOf } from "./ingest-plan";
import { retrieveFor, type PreparedEvents } from "./ingest-retrieval";

export { capToolInput } from "./tool-input";
export type { PreparedEvents };

/** Thrown inside a dry run's transaction to roll it back, carrying what it would have answered. */
class DryRunDone {
  constructor(readonly outcome: GroupOutcome) {}
}

type GroupOutcome = { responses: EventsResponse[]; endedSessions: string[] };

/**
 * A request's events with their prompts' retrieval done, before any transaction: what
 * a group applies. An event whose id was seen before is found without retrieval where
 * retrieval would cost a model call (lexical retrieval costs less than the look-up).
 */
export async function prepareEvents(events: AgentEvent[], source: string): Promise<PreparedEvents> {
  return {
    events,
    source,
    now: new Date().toISOString(),
    retrieved: await retrieveFor(events, source),
  };
}

/**
 * Applies the requests of one group (one source) in order, in one transaction: all of
 * it or none, in a fixed number of statements whatever its size. Each request gets
 * exactly its own results, in its order. An event id claimed before, by an earlier
 * request of the group, or by a concurrent transaction, is not applied again: it
 * answers "duplicate" with the first one's result and has no effect, whatever session
 * it names. A UserPromptSubmit replayed with `context_delivered: false` after it was
 * first recorded as delivered (the hook gave up waiting for the answer) is corrected:
 * its turn keeps no injected principles. A dry run does all of it and rolls back.
 */
export async function applyGroup(
  requests: PreparedEvents[],
  options: { dryRun?: boolean } = {},
): Promise<EventsResponse[]> {
  const source = requests[0]?.source ?? "hook";
  const entries = requests.flatMap((r, request) =>
    r.events.map((event) => ({ event, now: r.now, request })),
  );
  const firstIndex = new Map<string, number>();
  entries.forEach((e, i) => firstIndex.has(e.event.id) || firstIndex.set(e.event.id, i));
  const firsts = entries.filter((e, i) => firstIndex.get(e.event.id) === i);
  const retrieved = new Map(requests.flatMap((r) => [...r.retrieved]));
  const e = env();
  const weights = await weightSets.current();

  // Credit and reflection jobs are other repositories' statements: a group that may need them runs in a Prisma transaction.
  const prisma = entries.some(
    ({ event }) =>
      event.type === "SessionEnd" ||
      (event.type === "UserPromptSubmit" && event.context_delivered === false),
  );
  const work = async (sql: Sql, tx: Tx | null) => {
    const claimed = await eventBatches.claim(
      sql,
      firsts.map(({ event, now }) => claimOf(event, now)),
      source,
    );
    const fresh = firsts.filter((f) => claimed.has(f.event.id));
    const duplicates = firsts.filter((f) => !claimed.has(f.event.id));
    const state = await eventBatches.readState(sql, {
      sessionIds: [...new Set(fresh.map((f) => f.event.session_id))],
      duplicateIds: duplicates.map((d) => d.event.id),
      playbookLimit: fresh.some((f) => f.event.type === "UserPromptSubmit")
        ? e.CHARTER_PLAYBOOK_INJECT
        : 0,
    });
    const playbook = {
      names: state.playbook.map((k) => k.name),
      text: formatPlaybook(state.playbook),
    };
    const plan = new BatchPlan(state.latest, retrieved, playbook, source);
    for (const { event, now } of fresh) plan.apply(event, whenOf(event, now));

    const scored = [...plan.scored.entries()].map(([turnId, s]) => {
      const columns = scores.columns({
        engine: s.engine,
        overrides: s.overrides,
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
    // A replayed prompt's correction applies to the turn its stored event recorded, in that event's session.
    const corrected = await eventBatches.markUndelivered(
      sql,
      duplicates.flatMap(({ event }) => {
        const stored = state.seen.get(event.id);
        const turn = stored?.result?.turn;
        return event.type === "UserPromptSubmit" &&
          event.context_delivered === false &&
          stored?.type === "UserPromptSubmit" &&
          turn
          ? [{ session_id: stored.session_id, number: turn }]
          : [];
      }),
    );
    const credited = plan.ends.size > 0 || corrected.length > 0;
    const results = fresh.map((f, i) => ({
      id: f.event.id,
      end: f.event.type === "SessionEnd",
      result: plan.results[i]!,
    }));
    // A stop on a turn opened in this group goes into its insert; the rest update stored turns.
    const opened = new Set(plan.newTurns.map((t) => t.id));
    await eventBatches.writePlan(sql, {
      turns: plan.newTurns.map((t) => ({ ...t, ...stopFields(plan.stops.get(t.id)) })),
      stops: [...plan.stops.values()].filter((s) => !opened.has(s.id)),
      toolCalls: plan.toolCalls,
      ends: [...plan.ends.values()],
      scored,
      // A SessionEnd's result carries its session's outcome, known after the credit.
      results: results.filter((r) => !(credited && r.end)),
    });
    if (credited) {
      if (!tx)
        throw new Error("a group that ends or corrects sessions runs in a Prisma transaction");
      // A corrected session that was credited before is credited again without those principles.
      const recredit = await credits.creditedAmong(tx, corrected);
      const outcomes = await credits.creditSessions(tx, [
        ...new Set([...plan.ends.keys(), ...recredit]),
      ]);
      fresh.forEach(({ event }, i) => {
        const outcome = event.type === "SessionEnd" ? outcomes.get(event.session_id) : undefined;
        if (outcome) plan.results[i]!.outcome = { status: outcome.status, score: outcome.score };
      });
      await eventBatches.recordResults(
        sql,
        results.filter((r) => r.end),
      );
    }
    if (e.CHARTER_REFLECT_ON_SESSION_END && tx)
      await jobs.queueReflections(tx, [...plan.ends.keys()]);

    const byId = new Map(results.map((r) => [r.id, r.result]));
    const answers = entries.map(({ event }, i): EventResult => {
      if (firstIndex.get(event.id) === i && byId.has(event.id)) return byId.get(event.id)!;
      const stored = state.seen.get(event.id)?.result ?? byId.get(event.id) ?? { id: event.id };
      return { ...stored, status: "duplicate" };
    });
    let offset = 0;
    const outcome: GroupOutcome = {
      responses: requests.map((r) => response(answers.slice(offset, (offset += r.events.length)))),
      endedSessions: [...plan.ends.keys()],
    };
    if (options.dryRun) throw new DryRunDone(outcome);
    return outcome;
  };

  let outcome: GroupOutcome;
  try {
    outcome = await eventBatches.transaction({ prisma }, work);
  } catch (error) {
    if (error instanceof DryRunDone) return error.outcome.responses;
    throw error;
  }
  if (outcome.endedSessions.length && e.CHARTER_REFLECT_ON_SESSION_END)
    void import("./reflect").then(({ wakeReflectionWorker }) => wakeReflectionWorker());
  return outcome.responses;
}

function response(results: EventResult[]): EventsResponse {
  return {
    accepted: results.filter((r) => r.status === "accepted").length,
    duplicates: results.filter((r) => r.status === "duplicate").length,
    results,
  };
}

/**
 * Applies one batch of agent events alone, in one transaction (import, and a dry run).
 * See applyGroup; the route groups concurrent requests through lib/services/ingest-queue.ts.
 */
export async function ingestEvents(
  events: AgentEvent[],
  options: { source?: string; dryRun?: boolean } = {},
): Promise<EventsResponse> {
  const prepared = await prepareEvents(events, options.source ?? "hook");
  const [only] = await applyGroup([prepared], { dryRun: options.dryRun });
  return only!;
}
