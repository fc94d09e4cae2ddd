import {
  DEFAULT_WEIGHTS,
  PRINCIPLES,
  PrincipleScore,
  weightsSchema,
  type Weights,
} from "@/lib/reward";
import type { JobKind, JobStatus } from "@/lib/schemas/statuses";
import type { WeightSetRow } from "@/lib/schemas/weight-rows";
import { auditLog, SYSTEM_ACTOR, type Actor } from "./audit";
import { changeBus, memo } from "./change-bus";
import { db } from "./client";
import { parseColumn } from "./json-column";
import type { Tx } from "./transaction";

export type { WeightSetRow };

function full(weights: Weights): Record<string, number> {
  return Object.fromEntries(PRINCIPLES.map((p) => [p, weights[p] ?? 1]));
}

function toRow(row: {
  id: number;
  weights: unknown;
  authorLabel: string;
  message: string;
  createdAt: Date;
}): WeightSetRow {
  const weights: Record<string, number> = parseColumn(weightsSchema, row.weights, {
    table: "weight_set",
    id: row.id,
    field: "weights",
  });
  return {
    id: row.id,
    weights,
    authorLabel: row.authorLabel,
    message: row.message,
    createdAt: row.createdAt,
    maxTotal: PrincipleScore.maxTotal(weights),
  };
}

/**
 * The weight set in force, kept in memory until a new set is announced on the change bus;
 * on a fresh database, the turn-score spec's defaults become set 1.
 */
const inForce = memo("weight-set", ["weights"], async (): Promise<WeightSetRow> => {
  const latest = await db().weightSet.findFirst({ orderBy: { id: "desc" } });
  if (latest) return toRow(latest);
  await changeBus.transaction(async (tx, announce) => {
    await tx.$executeRaw`LOCK TABLE weight_set IN EXCLUSIVE MODE`;
    if ((await tx.weightSet.count()) === 0) {
      await tx.weightSet.create({
        data: {
          weights: full(DEFAULT_WEIGHTS),
          authorLabel: SYSTEM_ACTOR.label,
          message: "The turn-score spec's default weights",
        },
      });
      await announce({ topic: "weights" });
    }
  });
  return toRow((await db().weightSet.findFirst({ orderBy: { id: "desc" } }))!);
});

/** Versioned weight sets: the newest is in force; a change queues a recompute of stored totals. */
export const weightSets = {
  /** The weight set in force (see `inForce`). */
  current(): Promise<WeightSetRow> {
    return inForce.get();
  },

  async get(id: number): Promise<WeightSetRow | null> {
    const row = await db().weightSet.findUnique({ where: { id } });
    return row ? toRow(row) : null;
  },

  /** One weight set read in a transaction; a missing one is an error (a job names a set that exists). */
  async getIn(tx: Tx, id: number): Promise<WeightSetRow> {
    return toRow(await tx.weightSet.findUniqueOrThrow({ where: { id } }));
  },

  async history(limit = 50): Promise<WeightSetRow[]> {
    return (await db().weightSet.findMany({ orderBy: { id: "desc" }, take: limit })).map(toRow);
  },

  /** Saves a new weight set, audits it, and queues the recompute of every stored total, in one transaction. */
  async save(
    weights: Weights,
    message: string,
    actor: Actor,
  ): Promise<{ weightSet: WeightSetRow; jobId: number }> {
    const before = await this.current();
    return changeBus.transaction(async (tx, announce) => {
      const row = await tx.weightSet.create({
        data: { weights: full(weights), authorId: actor.id, authorLabel: actor.label, message },
      });
      // A newer weight set supersedes queued recomputes for older ones.
      await tx.backgroundJob.updateMany({
        where: {
          kind: "recompute" satisfies JobKind,
          status: { in: ["queued", "running"] satisfies JobStatus[] },
        },
        data: { status: "superseded" satisfies JobStatus, finishedAt: new Date() },
      });
      const total = await tx.turnScore.count();
      const job = await tx.backgroundJob.create({ data: { weightSetId: row.id, total } });
      await auditLog.append(tx, {
        actor,
        action: "weights.update",
        objectType: "weight_set",
        objectId: String(row.id),
        before: { id: before.id, weights: before.weights },
        after: { id: row.id, weights: row.weights, message },
      });
      await announce({ topic: "weights", id: String(row.id) });
      return { weightSet: toRow(row), jobId: job.id };
    });
  },
} as const;
