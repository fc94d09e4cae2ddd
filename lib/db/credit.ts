import { randomUUID } from "node:crypto";
import { assignCredit, sessionStateSchema, trust, type EnrichedOutcome, type SessionState, type UserFeedback } from "@/lib/credit";
import type { Prisma, PrismaClient } from "./generated/prisma/client";
import { db } from "./client";

type Client = Prisma.TransactionClient | PrismaClient;

/**
 * Seed 003's recordUsage: a principle_usage row and the principle's counters
 * (use_count + 1, success_count + credit), incremented in SQL, in one atomic
 * statement. Pass `tx` to join an outer transaction.
 */
export async function recordUsage(
  principleId: string,
  traceId: string | null,
  credit: number,
  options: { tx?: Prisma.TransactionClient; client?: PrismaClient; reasoning?: string; constitutionVersionId?: number | null } = {},
): Promise<void> {
  if (!(credit >= 0 && credit <= 1)) throw new RangeError(`credit must be between 0 and 1 (got ${credit})`);
  const client = options.tx ?? options.client ?? db();
  // One statement, so atomic on its own: the usage row and both counters, incremented in SQL.
  await client.$executeRaw`
    WITH usage AS (
      INSERT INTO principle_usage (id, principle_id, trace_id, was_successful, credit, reasoning, constitution_version_id)
      VALUES (${randomUUID()}, ${principleId}, ${traceId}, ${credit >= 0.5}, ${credit}, ${options.reasoning ?? null}, ${options.constitutionVersionId ?? null})
      RETURNING principle_id, credit
    )
    INSERT INTO principle_stat (principle_id, use_count, success_count, updated_at)
    SELECT principle_id, 1, credit, now() FROM usage
    ON CONFLICT (principle_id) DO UPDATE SET use_count = principle_stat.use_count + 1, success_count = principle_stat.success_count + EXCLUDED.success_count, updated_at = now()`;
}

/** Builds seed 003's SessionState for a stored session: prompts, injected principles, tool calls with the principles active then, feedback. */
export async function sessionState(client: Client, sessionId: string): Promise<SessionState> {
  const [session, turns, calls] = await Promise.all([
    client.agentSession.findUniqueOrThrow({ where: { id: sessionId } }),
    client.turn.findMany({ where: { sessionId }, orderBy: { number: "asc" } }),
    client.toolCall.findMany({ where: { sessionId }, orderBy: { at: "asc" } }),
  ]);
  const injected = [...new Set(turns.flatMap((t) => t.injectedPrinciples))];
  return sessionStateSchema.parse({
    sessionId,
    startTime: session.startedAt.toISOString(),
    prompts: turns.map((t) => t.prompt),
    injectedPrinciples: injected,
    toolCalls: calls.map((c) => ({
      tool: c.name,
      input: c.input && typeof c.input === "object" && !Array.isArray(c.input) ? c.input : {},
      output: c.output ?? "",
      timestamp: c.at.toISOString(),
      succeeded: c.succeeded,
      active_principles: c.activePrinciples,
      prompt_index: Math.max(0, c.turnNumber - 1),
    })),
    userFeedback: turns.flatMap((t) => (t.feedback ? [t.feedback as UserFeedback] : [])),
  });
}

/**
 * Credits a session once (SessionEnd): computes signals, outcome and credits and
 * records usage for every injected principle. A session already credited is left
 * alone, so a repeated or replayed SessionEnd changes nothing. Returns the outcome,
 * or null when the session had been credited before.
 */
export async function creditSession(tx: Prisma.TransactionClient, sessionId: string): Promise<EnrichedOutcome | null> {
  const state = await sessionState(tx, sessionId);
  const outcome = assignCredit(state);
  const inserted = await tx.$queryRaw<{ session_id: string }[]>`
    INSERT INTO session_outcome (session_id, status, score, signals, credits)
    VALUES (${sessionId}, ${outcome.status}, ${outcome.score}, ${JSON.stringify(outcome.signals)}::jsonb, ${JSON.stringify(outcome.principle_credits)}::jsonb)
    ON CONFLICT (session_id) DO NOTHING RETURNING session_id`;
  if (inserted.length === 0) return null;
  // The version that injected each principle: credits for principles since removed stay tied to it.
  const versions = new Map<string, number | null>();
  for (const turn of await tx.turn.findMany({ where: { sessionId }, orderBy: { number: "asc" }, select: { injectedPrinciples: true, constitutionVersionId: true } })) {
    for (const id of turn.injectedPrinciples) if (!versions.has(id)) versions.set(id, turn.constitutionVersionId);
  }
  for (const c of outcome.principle_credits) {
    await recordUsage(c.principle_id, sessionId, c.credit, { tx, reasoning: c.reasoning, constitutionVersionId: versions.get(c.principle_id) ?? null });
  }
  return outcome;
}

export type PrincipleTrustRow = { principleId: string; useCount: number; successCount: number; raw: number | null; smoothed: number; lowerBound: number };

/** Every principle's counters with raw, smoothed and lower-bound trust. */
export async function principleTrust(): Promise<Map<string, PrincipleTrustRow>> {
  const rows = await db().principleStat.findMany();
  return new Map(
    rows.map((r) => {
      const t = trust(r.successCount, r.useCount);
      return [r.principleId, { principleId: r.principleId, useCount: r.useCount, successCount: r.successCount, raw: t.raw, smoothed: t.smoothed, lowerBound: t.lower_bound }];
    }),
  );
}

/** Per principle and day: uses, summed credit, and the day's smoothed trust. */
export async function principleDaily(principleId?: string, days = 30) {
  const rows = await db().$queryRawUnsafe<{ principle_id: string; day: Date; uses: bigint; credit: number }[]>(
    `SELECT principle_id, date_trunc('day', created_at AT TIME ZONE 'UTC') AS day, count(*) AS uses, sum(credit)::float8 AS credit
     FROM principle_usage WHERE created_at >= now() - make_interval(days => $1::int) ${principleId ? "AND principle_id = $2" : ""}
     GROUP BY 1, 2 ORDER BY 1, 2`,
    ...(principleId ? [days, principleId] : [days]),
  );
  return rows.map((r) => ({ principleId: r.principle_id, day: r.day.toISOString().slice(0, 10), uses: Number(r.uses), credit: r.credit, smoothed: trust(r.credit, Number(r.uses)).smoothed }));
}
