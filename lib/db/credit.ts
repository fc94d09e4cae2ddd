import { randomUUID } from "node:crypto";
import { UNKNOWN_AGENT } from "@/lib/schemas/agents";
import {
  assignCredit,
  sessionStateSchema,
  trust,
  userFeedbackSchema,
  type EnrichedOutcome,
} from "@/lib/credit";
import type { DailyTrust, PrincipleTrustRow } from "@/lib/schemas/principle-rows";
import type { Prisma, PrismaClient } from "./generated/prisma/client";
import { db } from "./client";
import { parseColumn } from "./json-column";

export type { PrincipleTrustRow };

type Client = Prisma.TransactionClient | PrismaClient;
type Usage = {
  principleId: string;
  traceId: string | null;
  credit: number;
  reasoning: string | null;
  constitutionVersionId: number | null;
};

/**
 * Usage rows and their principles' counters (use_count + 1, success_count + credit
 * for each row), incremented in SQL in one statement, so atomic on its own: a credit
 * is never counted without its row, or twice. A credit outside 0..1 refuses them all.
 */
async function insertUsage(client: Client, usage: Usage[]): Promise<void> {
  if (usage.length === 0) return;
  for (const u of usage)
    if (!(u.credit >= 0 && u.credit <= 1))
      throw new RangeError(`credit must be between 0 and 1 (got ${u.credit})`);
  const rows = usage.map((u) => ({
    id: randomUUID(),
    principle_id: u.principleId,
    trace_id: u.traceId,
    was_successful: u.credit >= 0.5,
    credit: u.credit,
    reasoning: u.reasoning,
    constitution_version_id: u.constitutionVersionId,
  }));
  await client.$executeRawUnsafe(
    `WITH usage AS (
       INSERT INTO principle_usage (id, principle_id, trace_id, was_successful, credit, reasoning, constitution_version_id)
       SELECT id, principle_id, trace_id, was_successful, credit, reasoning, constitution_version_id
       FROM jsonb_to_recordset($1::jsonb) AS x(id text, principle_id text, trace_id text, was_successful boolean, credit float8, reasoning text, constitution_version_id int)
       RETURNING principle_id, credit
     )
     INSERT INTO principle_stat (principle_id, use_count, success_count, updated_at)
     SELECT principle_id, count(*)::int, sum(credit)::float8, now() FROM usage GROUP BY principle_id ORDER BY principle_id
     ON CONFLICT (principle_id) DO UPDATE SET use_count = principle_stat.use_count + EXCLUDED.use_count, success_count = principle_stat.success_count + EXCLUDED.success_count, updated_at = now()`,
    JSON.stringify(rows),
  );
}

/**
 * The credit-assignment spec's recordUsage: a principle_usage row and the principle's counters
 * (use_count + 1, success_count + credit), in one atomic statement. Pass `tx` to
 * join an outer transaction.
 */
async function recordUsage(
  principleId: string,
  traceId: string | null,
  credit: number,
  options: {
    tx?: Prisma.TransactionClient;
    client?: PrismaClient;
    reasoning?: string;
    constitutionVersionId?: number | null;
  } = {},
): Promise<void> {
  await insertUsage(options.tx ?? options.client ?? db(), [
    {
      principleId,
      traceId,
      credit,
      reasoning: options.reasoning ?? null,
      constitutionVersionId: options.constitutionVersionId ?? null,
    },
  ]);
}

/** SessionState for many sessions at once: two queries, whatever their number. */
async function sessionStates(tx: Prisma.TransactionClient, sessionIds: string[]) {
  const [sessions, turns, calls] = await Promise.all([
    tx.agentSession.findMany({
      where: { id: { in: sessionIds } },
      select: { id: true, startedAt: true },
    }),
    tx.turn.findMany({
      where: { sessionId: { in: sessionIds } },
      orderBy: [{ sessionId: "asc" }, { number: "asc" }],
      select: {
        id: true,
        sessionId: true,
        prompt: true,
        injectedPrinciples: true,
        constitutionVersionId: true,
        feedback: true,
      },
    }),
    tx.toolCall.findMany({
      where: { sessionId: { in: sessionIds } },
      orderBy: [{ at: "asc" }, { id: "asc" }],
    }),
  ]);
  return sessions.map((session) => {
    const own = turns.filter((t) => t.sessionId === session.id);
    const versions = new Map<string, number | null>();
    for (const turn of own)
      for (const id of turn.injectedPrinciples)
        if (!versions.has(id)) versions.set(id, turn.constitutionVersionId);
    const state = sessionStateSchema.parse({
      sessionId: session.id,
      startTime: session.startedAt.toISOString(),
      prompts: own.map((t) => t.prompt),
      injectedPrinciples: [...versions.keys()],
      toolCalls: calls
        .filter((c) => c.sessionId === session.id)
        .map((c) => ({
          tool: c.name,
          input: c.input && typeof c.input === "object" && !Array.isArray(c.input) ? c.input : {},
          output: c.output ?? "",
          timestamp: c.at.toISOString(),
          succeeded: c.succeeded,
          active_principles: c.activePrinciples,
          prompt_index: Math.max(0, c.turnNumber - 1),
        })),
      userFeedback: own.flatMap((t) =>
        t.feedback
          ? [
              parseColumn(userFeedbackSchema, t.feedback, {
                table: "turn",
                id: t.id,
                field: "feedback",
              }),
            ]
          : [],
      ),
    });
    return { state, versions };
  });
}

/**
 * Credits sessions (SessionEnd) in a fixed number of statements: computes each
 * one's signals, outcome and credits, and records usage for every principle that
 * was injected (a principle the agent never saw gets none). A session credited
 * before is credited again from everything it holds now: its earlier usage is taken
 * back first, so a session is never counted twice. A repeated SessionEnd (same
 * event id) never reaches here. Returns the outcomes by session.
 */
async function creditSessions(
  tx: Prisma.TransactionClient,
  sessionIds: string[],
): Promise<Map<string, EnrichedOutcome>> {
  const out = new Map<string, EnrichedOutcome>();
  if (sessionIds.length === 0) return out;
  await tx.$executeRawUnsafe(
    `WITH redone AS (DELETE FROM session_outcome WHERE session_id = ANY($1::text[]) RETURNING session_id),
     taken AS (DELETE FROM principle_usage WHERE trace_id IN (SELECT session_id FROM redone) RETURNING principle_id, credit)
     UPDATE principle_stat SET use_count = principle_stat.use_count - t.uses, success_count = principle_stat.success_count - t.credit, updated_at = now()
     FROM (SELECT principle_id, count(*)::int AS uses, sum(credit)::float8 AS credit FROM taken GROUP BY principle_id) AS t
     WHERE principle_stat.principle_id = t.principle_id`,
    sessionIds,
  );
  const outcomes: unknown[] = [];
  const usage: Usage[] = [];
  for (const { state, versions } of await sessionStates(tx, sessionIds)) {
    const outcome = assignCredit(state);
    out.set(state.sessionId, outcome);
    outcomes.push({
      session_id: state.sessionId,
      status: outcome.status,
      score: outcome.score,
      signals: outcome.signals,
      credits: outcome.principle_credits,
    });
    for (const c of outcome.principle_credits) {
      usage.push({
        principleId: c.principle_id,
        traceId: state.sessionId,
        credit: c.credit,
        reasoning: c.reasoning,
        constitutionVersionId: versions.get(c.principle_id) ?? null,
      });
    }
  }
  await tx.$executeRawUnsafe(
    `INSERT INTO session_outcome (session_id, status, score, signals, credits)
     SELECT session_id, status, score, signals, credits FROM jsonb_to_recordset($1::jsonb) AS x(session_id text, status text, score float8, signals jsonb, credits jsonb)`,
    JSON.stringify(outcomes),
  );
  await insertUsage(tx, usage);
  return out;
}

/** Every principle's counters with raw, smoothed and lower-bound trust. */
async function principleTrust(): Promise<Map<string, PrincipleTrustRow>> {
  const rows = await db().principleStat.findMany();
  return new Map(
    rows.map((r) => {
      const t = trust(r.successCount, r.useCount);
      return [
        r.principleId,
        {
          principleId: r.principleId,
          useCount: r.useCount,
          successCount: r.successCount,
          raw: t.raw,
          smoothed: t.smoothed,
          lowerBound: t.lower_bound,
        },
      ];
    }),
  );
}

/** Usage rows (`u`) with their session (`s`): a usage row names its session as trace_id. */
const USAGE_WITH_SESSION = "principle_usage u LEFT JOIN agent_session s ON s.id = u.trace_id";

/**
 * The SQL condition keeping the usage of one agent's sessions, over USAGE_WITH_SESSION;
 * its parameter, if any, is pushed onto `params`. UNKNOWN_AGENT keeps the usage of sessions
 * that named no agent, and of usage recorded with no stored session.
 */
function agentCondition(agent: string | undefined, params: unknown[]): string {
  if (agent === undefined) return "TRUE";
  return agent === UNKNOWN_AGENT ? "s.agent IS NULL" : `s.agent = $${params.push(agent)}`;
}

/**
 * Trust per principle and agent, from the usage rows (the counters in principle_stat are
 * for all agents together): does a principle earn its keep with every agent, or with one?
 * A null agent holds the sessions that named none. `principleId` keeps one principle.
 */
async function principleTrustByAgent(
  options: { principleId?: string; agent?: string } = {},
): Promise<(PrincipleTrustRow & { agent: string | null })[]> {
  const params: unknown[] = [];
  const byPrinciple = options.principleId
    ? `u.principle_id = $${params.push(options.principleId)}`
    : "TRUE";
  const byAgent = agentCondition(options.agent, params);
  const rows = await db().$queryRawUnsafe<
    { principle_id: string; agent: string | null; uses: bigint; credit: number }[]
  >(
    `SELECT u.principle_id, s.agent, count(*) AS uses, sum(u.credit)::float8 AS credit
     FROM ${USAGE_WITH_SESSION} WHERE ${byPrinciple} AND ${byAgent}
     GROUP BY 1, 2 ORDER BY 1, 2 NULLS LAST`,
    ...params,
  );
  return rows.map((r) => {
    const uses = Number(r.uses);
    const t = trust(r.credit, uses);
    return {
      principleId: r.principle_id,
      agent: r.agent,
      useCount: uses,
      successCount: r.credit,
      raw: t.raw,
      smoothed: t.smoothed,
      lowerBound: t.lower_bound,
    };
  });
}

/** Per principle and day: uses, summed credit, and the day's smoothed trust; `agent` keeps one agent's sessions. */
async function principleDaily(
  principleId?: string,
  days = 30,
  agent?: string,
): Promise<DailyTrust[]> {
  const params: unknown[] = [days];
  const byPrinciple = principleId ? `AND u.principle_id = $${params.push(principleId)}` : "";
  const byAgent = agentCondition(agent, params);
  const rows = await db().$queryRawUnsafe<
    { principle_id: string; day: Date; uses: bigint; credit: number }[]
  >(
    `SELECT u.principle_id, date_trunc('day', u.created_at AT TIME ZONE 'UTC') AS day, count(*) AS uses, sum(u.credit)::float8 AS credit
     FROM ${USAGE_WITH_SESSION} WHERE u.created_at >= now() - make_interval(days => $1::int) ${byPrinciple} AND ${byAgent}
     GROUP BY 1, 2 ORDER BY 1, 2`,
    ...params,
  );
  return rows.map((r) => ({
    principleId: r.principle_id,
    day: r.day.toISOString().slice(0, 10),
    uses: Number(r.uses),
    credit: r.credit,
    smoothed: trust(r.credit, Number(r.uses)).smoothed,
  }));
}

/** Sessions among these that were credited before (they hold an outcome). */
async function creditedAmong(
  tx: Prisma.TransactionClient,
  sessionIds: string[],
): Promise<string[]> {
  if (sessionIds.length === 0) return [];
  const rows = await tx.sessionOutcome.findMany({
    where: { sessionId: { in: sessionIds } },
    select: { sessionId: true },
  });
  return rows.map((r) => r.sessionId);
}

/** The credit-assignment spec's credit: principles' usage and counters, and sessions' outcomes. */
export const credits = {
  recordUsage,
  creditSessions,
  creditedAmong,
  trust: principleTrust,
  trustByAgent: principleTrustByAgent,
  daily: principleDaily,
} as const;
