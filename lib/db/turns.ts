import { randomUUID } from "node:crypto";
import { UNKNOWN_AGENT } from "@/lib/schemas/agents";
import { NotFoundError } from "@/lib/errors";
import type { Principle } from "@/lib/reward";
import { isStorableText } from "@/lib/schemas/text";
import type { TurnFilters, TurnListRow } from "@/lib/schemas/turn-rows";
import { turnCursorSchema, type TurnCursor } from "@/lib/schemas/turns";
import { auditLog, type Actor } from "./audit";
import { db } from "./client";
import { inTransaction } from "./transaction";
import type { Prisma } from "./generated/prisma/client";
import { SCORE_COLUMN, scoresOf } from "./score-columns";
import { scores } from "./scores";
import { weightSets } from "./weights";

export type { TurnFilters, TurnListRow };
export type { TurnCursor };

export function encodeCursor(c: TurnCursor): string {
  return Buffer.from(JSON.stringify(c)).toString("base64url");
}

/** The cursor behind a `next` value; undefined for anything else (see turnCursorSchema, which routes use to refuse it). */
export function decodeCursor(text: string | undefined | null): TurnCursor | undefined {
  return text ? turnCursorSchema.safeParse(text).data : undefined;
}

function where(f: TurnFilters, cursor?: TurnCursor): Prisma.TurnScoreWhereInput {
  const and: Prisma.TurnScoreWhereInput[] = [];
  if (f.sessionId) and.push({ turn: { sessionId: f.sessionId } });
  if (f.agent)
    and.push({ turn: { session: { agent: f.agent === UNKNOWN_AGENT ? null : f.agent } } });
  if (f.from) and.push({ scoredAt: { gte: f.from } });
  if (f.to) and.push({ scoredAt: { lt: f.to } });
  if (f.minTotal !== undefined) and.push({ normalizedTotal: { gte: f.minTotal } });
  if (f.maxTotal !== undefined) and.push({ normalizedTotal: { lte: f.maxTotal } });
  if (f.principle && f.below !== undefined)
    and.push({ [SCORE_COLUMN[f.principle].field]: { lt: f.below } });
  if (cursor) {
    const at = new Date(cursor.scoredAt);
    // (scored_at, turn_id) < (at, id), written so that the leading `scored_at <= at` is an index range.
    and.push(
      { scoredAt: { lte: at } },
      { OR: [{ scoredAt: { lt: at } }, { turnId: { lt: cursor.turnId } }] },
    );
  }
  return { AND: and };
}

/** Scored turns, newest first, filtered, one keyset page at a time. */
async function list(
  filters: TurnFilters,
  options: { cursor?: TurnCursor; limit?: number } = {},
): Promise<{ rows: TurnListRow[]; next: string | null }> {
  const limit = Math.min(Math.max(options.limit ?? 50, 1), 200);
  const rows = await db().turnScore.findMany({
    where: where(filters, options.cursor),
    orderBy: [{ scoredAt: "desc" }, { turnId: "desc" }],
    take: limit + 1,
    include: {
      turn: {
        select: {
          sessionId: true,
          number: true,
          prompt: true,
          session: { select: { agent: true } },
          _count: { select: { overrides: true } },
        },
      },
    },
  });
  const page = rows.slice(0, limit).map((r) => ({
    id: r.turnId,
    sessionId: r.turn.sessionId,
    agent: r.turn.session.agent,
    number: r.turn.number,
    prompt: r.turn.prompt.slice(0, 200),
    scoredAt: r.scoredAt,
    weightedTotal: r.weightedTotal,
    maxTotal: r.maxTotal,
    normalizedTotal: r.normalizedTotal,
    scores: scoresOf(r),
    overridden: r.turn._count.overrides > 0,
  }));
  const last = rows.length > limit ? page.at(-1) : undefined;
  return {
    rows: page,
    next: last ? encodeCursor({ scoredAt: last.scoredAt.toISOString(), turnId: last.id }) : null,
  };
}

/** Everything the turn page shows. */
async function get(id: string) {
  // An id from a URL may hold what no stored id can (a NUL); PostgreSQL would refuse to compare it.
  if (!isStorableText(id)) throw new NotFoundError(`No turn ${id}.`);
  const turn = await db().turn.findUnique({
    where: { id },
    include: { score: true, overrides: { orderBy: { createdAt: "asc" } }, session: true },
  });
  if (!turn) throw new NotFoundError(`No turn ${id}.`);
  const tools = await db().toolCall.findMany({
    where: { sessionId: turn.sessionId, turnNumber: turn.number },
    orderBy: { at: "asc" },
  });
  const weights = turn.score ? await weightSets.get(turn.score.weightSetId) : null;
  const effective = turn.score ? scoresOf(turn.score) : null;
  // A turn not scored yet shows the engine's defaults (1.0 each), as an empty score dict reads.
  const engine = scores.engineScores(turn.score?.engineScores ?? {}, turn.id);
  return { turn, tools, weights, effective, engine };
}

/**
 * A reviewer sets one principle's score on one turn, with a reason. The engine's
 * score is kept; the totals use the override; the change is audited.
 */
async function overrideScore(
  input: { turnId: string; principle: Principle; value: number; reason: string },
  actor: Actor,
) {
  // Read outside the transaction: the embedded database has one connection, which the transaction holds.
  const scored = await db().turnScore.findUnique({
    where: { turnId: input.turnId },
    select: { weightSetId: true },
  });
  if (!scored) throw new NotFoundError(`No scored turn ${input.turnId}.`);
  const weights = (await weightSets.get(scored.weightSetId)) ?? (await weightSets.current());
  return inTransaction(async (tx) => {
    const turn = await tx.turn.findUnique({
      where: { id: input.turnId },
      include: { score: true, overrides: true },
    });
    if (!turn?.score) throw new NotFoundError(`No scored turn ${input.turnId}.`);
    const previous = turn.overrides.find((o) => o.principle === input.principle);
    await tx.scoreOverride.upsert({
      where: { turnId_principle: { turnId: input.turnId, principle: input.principle } },
      create: {
        id: randomUUID(),
        turnId: input.turnId,
        principle: input.principle,
        value: input.value,
        reason: input.reason,
        authorId: actor.id,
        authorLabel: actor.label,
      },
      update: {
        value: input.value,
        reason: input.reason,
        authorId: actor.id,
        authorLabel: actor.label,
        createdAt: new Date(),
      },
    });
    const overrides = {
      ...Object.fromEntries(turn.overrides.map((o) => [o.principle, o.value])),
      [input.principle]: input.value,
    };
    const engine = scores.engineScores(turn.score.engineScores, turn.id);
    const totals = await scores.write(tx, {
      turnId: turn.id,
      engine,
      overrides,
      reasoning: turn.score.reasoning,
      weights,
      constitutionVersionId: turn.score.constitutionVersionId,
    });
    await auditLog.append(tx, {
      actor,
      action: "turn.override_score",
      objectType: "turn",
      objectId: turn.id,
      before: {
        principle: input.principle,
        value: previous?.value ?? engine[input.principle],
        engine: engine[input.principle],
      },
      after: { principle: input.principle, value: input.value, reason: input.reason, ...totals },
    });
    return totals;
  });
}

/** The prompts of the latest `limit` turns that had one, newest first (for impact replays). */
async function recentPrompts(limit: number): Promise<string[]> {
  const rows = await db().turn.findMany({
    where: { prompt: { not: "" } },
    orderBy: { startedAt: "desc" },
    take: limit,
    select: { prompt: true },
  });
  return rows.map((r) => r.prompt);
}

/** Turns: the scored list, one turn's page, reviewers' overrides, recent prompts. */
export const turns = { list, get, overrideScore, recentPrompts } as const;
