import { credits } from "@/lib/db/credit";
import { eventBatches, type StoredEvent } from "@/lib/db/ingest";
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

/** One event of a group, with its request's arrival time and its request's place in the group. */
type Entry = { event: AgentEvent; now: string; request: number };

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
  const entries: Entry[] = requests.flatMap((r, request) =>
    r.events.map((event) => ({ event, now: r.now, request })),
  );
  // An id's first entry is the one applied; a repeat within the group is a duplicate of it.
  const ids = new Set<string>();
  const firsts = entries.filter(({ event }) => !ids.has(event.id) && ids.add(event.id));
  const retrieved = new Map(requests.flatMap((r) => [...r.retrieved]));
  const weights = await weightSets.current();
  const e = env();

  // Credit and reflection jobs are other repositories' statements: a group that may need them runs in a Prisma transaction.
  const prisma = entries.some(
    ({ event }) =>
      event.type === "SessionEnd" ||
      (event.type === "UserPromptSubmit" && event.context_delivered === false),
  );
  const work = async (sql: Sql, tx: Tx | null): Promise<GroupOutcome> => {
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
      playbookLimit: fresh.some(
        (f) => f.event.type === "UserPromptSubmit" || f.event.type === "SessionStart",
      )
        ? e.CHARTER_PLAYBOOK_INJECT
        : 0,
    });
    const playbook = {
      names: state.playbook.map((k) => k.name),
      text: formatPlaybook(state.playbook),
    };
    const plan = new BatchPlan(state.latest, retrieved, playbook, source);
    for (const { event, now } of fresh) plan.apply(event, whenOf(event, now));
    const scored = scoreTurns(plan, weights);
    const corrected = await eventBatches.markUndelivered(
      sql,
      replayedUndelivered(duplicates, state.seen),
    );
    const credited = plan.ends.size > 0 || corrected.length > 0;
    const results = fresh.map(({ event }) => ({
      id: event.id,
      end: event.type === "SessionEnd",
      result: plan.results.get(event.id)!,
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
      await creditSessions(tx, plan, fresh, corrected);
      await eventBatches.recordResults(
        sql,
        results.filter((r) => r.end),
      );
    }
    if (e.CHARTER_REFLECT_ON_SESSION_END && tx)
      await jobs.queueReflections(tx, [...plan.ends.keys()]);

    const answers = answersFor(entries, plan.results, state.seen);
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

/** The score rows of the turns the group stopped; each Stop's result gets its turn's totals. */
function scoreTurns(plan: BatchPlan, weights: Awaited<ReturnType<typeof weightSets.current>>) {
  return [...plan.scored.entries()].map(([turnId, s]) => {
    const columns = scores.columns({
      engine: s.engine,
      overrides: s.overrides,
      reasoning: s.reasoning,
      weights,
      constitutionVersionId: s.constitutionVersionId,
    });
    for (const result of s.results)
      result.score = {
        weighted_total: columns.weightedTotal,
        normalized_total: columns.normalizedTotal,
      };
    return { turnId, columns };
  });
}

/**
 * The turns to correct: a prompt replayed as undelivered (`context_delivered: false`)
 * whose stored event recorded it as a turn, in that event's session.
 */
function replayedUndelivered(duplicates: Entry[], seen: Map<string, StoredEvent>) {
  return duplicates.flatMap(({ event }) => {
    const stored = seen.get(event.id);
    const turn = stored?.result?.turn;
    return event.type === "UserPromptSubmit" &&
      event.context_delivered === false &&
      stored?.type === "UserPromptSubmit" &&
      turn
      ? [{ session_id: stored.session_id, number: turn }]
      : [];
  });
}

/**
 * Credits the sessions the group ended, and again those credited before whose turns were
 * corrected (without those principles); each SessionEnd's result gets its outcome.
 */
async function creditSessions(
  tx: Tx,
  plan: BatchPlan,
  fresh: Entry[],
  corrected: string[],
): Promise<void> {
  const recredit = await credits.creditedAmong(tx, corrected);
  const outcomes = await credits.creditSessions(tx, [
    ...new Set([...plan.ends.keys(), ...recredit]),
  ]);
  for (const { event } of fresh) {
    const outcome = event.type === "SessionEnd" ? outcomes.get(event.session_id) : undefined;
    if (outcome)
      plan.results.get(event.id)!.outcome = { status: outcome.status, score: outcome.score };
  }
}

/**
 * Each entry's answer, in the group's order: an applied event's own result; any other
 * (claimed before, or a repeat of an id earlier in the group) is a duplicate carrying
 * the first one's result.
 */
function answersFor(
  entries: Entry[],
  applied: Map<string, EventResult>,
  seen: Map<string, StoredEvent>,
): EventResult[] {
  const answered = new Set<string>();
  return entries.map(({ event }) => {
    const own = applied.get(event.id);
    if (own && !answered.has(event.id)) {
      answered.add(event.id);
      return own;
    }
    return { ...(seen.get(event.id)?.result ?? own ?? { id: event.id }), status: "duplicate" };
  });
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
