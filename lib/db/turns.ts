import { randomUUID } from "node:crypto";
import { NotFoundError } from "@/lib/errors";
import { PRINCIPLES, type Principle, type ScoreDict } from "@/lib/reward";
import { isStorableText } from "@/lib/schemas/text";
import { turnCursorSchema, type TurnCursor } from "@/lib/schemas/turns";
import { writeScore } from "@/lib/services/ingest";
import { auditLog, type Actor } from "./audit";
import { db } from "./client";
import type { Prisma } from "./generated/prisma/client";
import { weightSets } from "./weights";

/** turn_score's column for each principle. */
export const SCORE_COLUMN: Record<
  Principle,
  "tasteful" | "curated" | "ethical" | "joyInducing" | "composable" | "heterarchical" | "generative"
> = {
  tasteful: "tasteful",
  curated: "curated",
  ethical: "ethical",
  joy_inducing: "joyInducing",
  composable: "composable",
  heterarchical: "heterarchical",
  generative: "generative",
};

export type TurnFilters = {
  sessionId?: string;
  from?: Date;
  to?: Date;
  minTotal?: number;
  maxTotal?: number;
  /** Only turns where this principle scored below `below`. */
  principle?: Principle;
  below?: number;
};

export type TurnListRow = {
  id: string;
  sessionId: string;
  number: number;
  prompt: string;
  scoredAt: Date;
  weightedTotal: number;
  maxTotal: number;
  normalizedTotal: number;
  scores: ScoreDict;
  overridden: boolean;
};

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
  if (f.from) and.push({ scoredAt: { gte: f.from } });
  if (f.to) and.push({ scoredAt: { lt: f.to } });
  if (f.minTotal !== undefined) and.push({ normalizedTotal: { gte: f.minTotal } });
  if (f.maxTotal !== undefined) and.push({ normalizedTotal: { lte: f.maxTotal } });
  if (f.principle && f.below !== undefined)
    and.push({ [SCORE_COLUMN[f.principle]]: { lt: f.below } });
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
export async function listTurns(
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
          _count: { select: { overrides: true } },
        },
      },
    },
  });
  const page = rows.slice(0, limit).map((r) => ({
    id: r.turnId,
    sessionId: r.turn.sessionId,
    number: r.turn.number,
    prompt: r.turn.prompt.slice(0, 200),
    scoredAt: r.scoredAt,
    weightedTotal: r.weightedTotal,
    maxTotal: r.maxTotal,
    normalizedTotal: r.normalizedTotal,
    scores: Object.fromEntries(PRINCIPLES.map((p) => [p, r[SCORE_COLUMN[p]]])) as ScoreDict,
    overridden: r.turn._count.overrides > 0,
  }));
  const last = rows.length > limit ? page.at(-1) : undefined;
  return {
    rows: page,
    next: last ? encodeCursor({ scoredAt: last.scoredAt.toISOString(), turnId: last.id }) : null,
  };
}

/** Everything the turn page shows. */
export async function getTurn(id: string) {
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
  return { turn, tools, weights };
}

/**
 * A reviewer sets one principle's score on one turn, with a reason. The engine's
 * score is kept; the totals use the override; the change is audited.
 */
export async function overrideScore(
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
  return db().$transaction(async (tx) => {
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
    const engine = turn.score.engineScores as ScoreDict;
    const totals = await writeScore(tx, {
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
export async function recentPrompts(limit: number): Promise<string[]> {
  const rows = await db().turn.findMany({
    where: { prompt: { not: "" } },
    orderBy: { startedAt: "desc" },
    take: limit,
    select: { prompt: true },
  });
  return rows.map((r) => r.prompt);
}
