import { outcomeParts } from "@/lib/credit";
import { NotFoundError } from "@/lib/errors";
import {
  outcomeSignalsSchema,
  principleCreditsSchema,
  type SessionDetail,
  type SessionListRow,
} from "@/lib/schemas/session-rows";
import { contextDeliverySchema, outcomeStatusSchema } from "@/lib/schemas/statuses";
import { userFeedbackSchema } from "@/lib/credit";
import { UNKNOWN_AGENT } from "@/lib/schemas/agents";
import { isStorableText } from "@/lib/schemas/text";
import { db } from "./client";
import { parseColumn } from "./json-column";

/** Characters of a session's first prompt read for the Sessions table. */
const FIRST_PROMPT_READ = 400;

/** What an agent filter matches: one agent's sessions, or with UNKNOWN_AGENT those that named none. */
const agentWhere = (agent: string | undefined) =>
  agent === undefined ? {} : { agent: agent === UNKNOWN_AGENT ? null : agent };

/**
 * Sessions, newest activity first, with where they came from, their first prompt (its
 * start) and their outcome when credited; `agent` keeps one agent's (or UNKNOWN_AGENT's).
 */
async function list(
  options: { limit?: number; before?: Date; agent?: string } = {},
): Promise<SessionListRow[]> {
  const rows = await db().agentSession.findMany({
    where: {
      ...(options.before ? { lastEventAt: { lt: options.before } } : {}),
      ...agentWhere(options.agent),
    },
    orderBy: { lastEventAt: "desc" },
    take: Math.min(options.limit ?? 50, 200),
    include: { _count: { select: { turns: true, toolCalls: true } } },
  });
  const ids = rows.map((r) => r.id);
  const [outcomes, prompts] = await Promise.all([
    db().sessionOutcome.findMany({
      where: { sessionId: { in: ids } },
      select: { sessionId: true, status: true, score: true },
    }),
    db().$queryRawUnsafe<{ session_id: string; prompt: string }[]>(
      `SELECT DISTINCT ON (session_id) session_id, left(prompt, $2::int) AS prompt FROM turn WHERE session_id = ANY($1::text[]) AND prompt <> '' ORDER BY session_id, number`,
      ids,
      FIRST_PROMPT_READ,
    ),
  ]);
  const outcomeOf = new Map(
    outcomes.map((o) => [
      o.sessionId,
      {
        status: parseColumn(outcomeStatusSchema, o.status, {
          table: "session_outcome",
          id: o.sessionId,
          field: "status",
        }),
        score: o.score,
      },
    ]),
  );
  const promptOf = new Map(prompts.map((p) => [p.session_id, p.prompt]));
  return rows.map((r) => ({
    id: r.id,
    source: r.source,
    cwd: r.cwd,
    transcriptPath: r.transcriptPath,
    agent: r.agent,
    agentVersion: r.agentVersion,
    firstPrompt: promptOf.get(r.id) ?? null,
    startedAt: r.startedAt,
    lastEventAt: r.lastEventAt,
    endedAt: r.endedAt,
    turns: r._count.turns,
    toolCalls: r._count.toolCalls,
    outcome: outcomeOf.get(r.id) ?? null,
  }));
}

/** The agents sessions named, with how many sessions each; null counts those that named none. */
async function agents(): Promise<{ agent: string | null; sessions: number }[]> {
  const rows = await db().agentSession.groupBy({
    by: ["agent"],
    _count: { _all: true },
    orderBy: { agent: "asc" },
  });
  return rows.map((r) => ({ agent: r.agent, sessions: r._count._all }));
}

/** How many of these session ids are stored. */
async function count(ids: string[]): Promise<number> {
  return ids.length === 0 ? 0 : db().agentSession.count({ where: { id: { in: ids } } });
}

/** One session: prompts with their feedback, tool calls with the principles active, the outcome and how it was formed, the credits. */
async function get(id: string): Promise<SessionDetail> {
  // An id from a URL may hold what no stored id can (a NUL); PostgreSQL would refuse to compare it.
  if (!isStorableText(id)) throw new NotFoundError(`No session ${id}.`);
  const session = await db().agentSession.findUnique({ where: { id } });
  if (!session) throw new NotFoundError(`No session ${id}.`);
  const [turns, toolCalls, outcome] = await Promise.all([
    db().turn.findMany({
      where: { sessionId: id },
      orderBy: { number: "asc" },
      include: {
        score: { select: { normalizedTotal: true, weightedTotal: true, maxTotal: true } },
      },
    }),
    db().toolCall.findMany({ where: { sessionId: id }, orderBy: { at: "asc" } }),
    db().sessionOutcome.findUnique({ where: { sessionId: id } }),
  ]);
  const ref = { table: "session_outcome", id };
  const signals = outcome
    ? parseColumn(outcomeSignalsSchema, outcome.signals, { ...ref, field: "signals" })
    : undefined;
  return {
    session: {
      id: session.id,
      source: session.source,
      cwd: session.cwd,
      transcriptPath: session.transcriptPath,
      agent: session.agent,
      agentVersion: session.agentVersion,
      startedAt: session.startedAt,
      lastEventAt: session.lastEventAt,
      endedAt: session.endedAt,
      endReason: session.endReason,
    },
    turns: turns.map((t) => ({
      id: t.id,
      number: t.number,
      prompt: t.prompt,
      response: t.response,
      startedAt: t.startedAt,
      injectedPrinciples: t.injectedPrinciples,
      injectedKeyPoints: t.injectedKeyPoints,
      retrievedPrinciples: t.retrievedPrinciples,
      contextDelivery: parseColumn(contextDeliverySchema, t.contextDelivery, {
        table: "turn",
        id: t.id,
        field: "context_delivery",
      }),
      feedback:
        t.feedback === null
          ? null
          : parseColumn(userFeedbackSchema, t.feedback, {
              table: "turn",
              id: t.id,
              field: "feedback",
            }),
      score: t.score,
    })),
    toolCalls: toolCalls.map((c) => ({
      id: c.id,
      turnNumber: c.turnNumber,
      name: c.name,
      input: c.input,
      succeeded: c.succeeded,
      activePrinciples: c.activePrinciples,
      at: c.at,
      output: c.output,
    })),
    outcome:
      outcome && signals
        ? {
            status: parseColumn(outcomeStatusSchema, outcome.status, { ...ref, field: "status" }),
            score: outcome.score,
            signals,
            parts: outcomeParts(signals),
            credits: parseColumn(principleCreditsSchema, outcome.credits, {
              ...ref,
              field: "credits",
            }),
            computedAt: outcome.computedAt,
          }
        : null,
  };
}

/** A session's turns and tool calls in order, for the reflector; null when there is no such session. */
async function forReflection(id: string) {
  const session = await db().agentSession.findUnique({ where: { id } });
  if (!session) return null;
  const [turns, tools] = await Promise.all([
    db().turn.findMany({ where: { sessionId: id }, orderBy: { number: "asc" } }),
    db().toolCall.findMany({ where: { sessionId: id }, orderBy: { at: "asc" } }),
  ]);
  return { session, turns, tools };
}

/** Agent sessions as the dashboard and the reflector read them. */
/** Open sessions whose last event is older than `before`, oldest first: what the idle sweep ends. */
async function idle(before: Date, limit = 200): Promise<{ id: string; lastEventAt: Date }[]> {
  return db().agentSession.findMany({
    where: { endedAt: null, lastEventAt: { lt: before } },
    orderBy: { lastEventAt: "asc" },
    take: limit,
    select: { id: true, lastEventAt: true },
  });
}

export const sessions = { list, agents, count, get, idle, forReflection } as const;
