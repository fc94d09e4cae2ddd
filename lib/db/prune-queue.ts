import { PRUNE_HARMFUL_FLOOR, shouldPrune } from "@/lib/playbook";
import { ConflictError, NotFoundError } from "@/lib/errors";
import type { Prisma } from "./generated/prisma/client";
import { auditLog, type Actor } from "./audit";
import { inTransaction } from "./transaction";
import type { KeyPointStatus } from "@/lib/schemas/statuses";

type Tx = Prisma.TransactionClient;
type Counted = { name: string; status: string; helpful: number; harmful: number };

/** The audit action of a proposal that went back into use because its counts stopped meeting the rule. */
export const WITHDRAWN_ACTION = "key_point.prune_withdrawn";
/** Why a proposal was withdrawn, as the audit row and the queue say it. */
export const WITHDRAWN_REASON = "its counts no longer meet the prune rule";

/** A proposal taken back without a person: which point, its counts then, when, and what changed them. */
export type WithdrawnProposal = {
  name: string;
  helpful: number;
  harmful: number;
  at: Date;
  by: string;
};

/**
 * Brings the prune queue in line with the counts of the named points (the playbook spec: `harmful >= 3
 * and harmful > helpful`), inside the transaction that changed them, which therefore holds
 * their row locks: a proposed point that no longer meets the rule goes back to active, with an
 * audit row saying why; an active point that meets it is proposed, unless a person kept it at
 * its current harmful count (a rejected proposal returns only when harmful grows past the count
 * it was rejected at). Pruned points are left to people (see `undo`).
 */
export async function recheckProposals(
  tx: Tx,
  names: readonly string[],
  actor: Actor,
): Promise<{ proposed: string[]; withdrawn: string[] }> {
  if (names.length === 0) return { proposed: [], withdrawn: [] };
  const changed = [...new Set(names)];
  // One statement, so a busy point's row lock is held no longer than before proposals were re-checked.
  const moved = await tx.$queryRaw<
    { name: string; status: string; helpful: number; harmful: number }[]
  >`
    UPDATE key_point SET status = CASE WHEN status = 'proposed' THEN 'active' ELSE 'proposed' END, updated_at = now()
    WHERE name = ANY(${changed}::text[]) AND (
      (status = 'proposed' AND NOT (harmful >= ${PRUNE_HARMFUL_FLOOR} AND harmful > helpful))
      OR (status = 'active' AND harmful >= ${PRUNE_HARMFUL_FLOOR} AND harmful > helpful AND (kept_at_harmful IS NULL OR harmful > kept_at_harmful)))
    RETURNING name, status, helpful, harmful`;
  moved.sort((a, b) => a.name.localeCompare(b.name));
  const withdrawn = moved.filter((r) => r.status === "active");
  for (const row of withdrawn) {
    await auditLog.append(tx, {
      actor,
      action: WITHDRAWN_ACTION,
      objectType: "key_point",
      objectId: row.name,
      before: { status: "proposed" },
      after: {
        status: "active",
        helpful: row.helpful,
        harmful: row.harmful,
        reason: WITHDRAWN_REASON,
      },
    });
  }
  return {
    proposed: moved.filter((r) => r.status === "proposed").map((r) => r.name),
    withdrawn: withdrawn.map((r) => r.name),
  };
}

/** Locks the named key points (in name order, so two deciders cannot deadlock) and returns them; an unknown name is refused. */
async function lockPoints(tx: Tx, names: readonly string[]): Promise<Counted[]> {
  const wanted = [...new Set(names)].sort();
  const rows = await tx.$queryRaw<Counted[]>`
    SELECT name, status, helpful, harmful FROM key_point WHERE name = ANY(${wanted}::text[]) ORDER BY name FOR UPDATE`;
  const found = new Set(rows.map((r) => r.name));
  const missing = wanted.filter((n) => !found.has(n));
  if (missing.length) throw new NotFoundError(`No key point ${missing.join(", ")}.`);
  return rows;
}

const counts = (row: Counted) => `helpful ${row.helpful}, harmful ${row.harmful}`;

/** The prune queue's decisions: each runs in one transaction, on rows locked first, and changes nothing when it refuses. */
export const pruneQueue = {
  /**
   * Prunes proposed points. Each must still be proposed and still meet the playbook spec's rule
   * with the counts read under the row lock; otherwise nothing is pruned and the error
   * names the point, so a reflection that landed meanwhile is never overruled.
   */
  async approve(names: readonly string[], actor: Actor): Promise<void> {
    await inTransaction(async (tx) => {
      const rows = await lockPoints(tx, names);
      for (const row of rows) {
        if (row.status !== "proposed")
          throw new ConflictError(
            `${row.name} is not proposed for pruning (it is ${row.status}); reload the queue.`,
          );
        if (!shouldPrune(row))
          throw new ConflictError(
            `${row.name} no longer meets the prune rule (${counts(row)}, it needs harmful >= ${PRUNE_HARMFUL_FLOOR} and harmful > helpful): nothing was pruned; reload the queue.`,
          );
      }
      for (const row of rows) {
        await tx.keyPoint.update({
          where: { name: row.name },
          data: { status: "pruned" satisfies KeyPointStatus, prunedAt: new Date() },
        });
        await auditLog.append(tx, {
          actor,
          action: "key_point.prune_approve",
          objectType: "key_point",
          objectId: row.name,
          before: { status: row.status, helpful: row.helpful, harmful: row.harmful },
          after: { status: "pruned" },
        });
      }
    });
  },

  /** Keeps proposed points in use at their harmful count: they are proposed again only when harmful grows past it (a helpful rating never re-proposes). */
  async reject(names: readonly string[], actor: Actor): Promise<void> {
    await inTransaction(async (tx) => {
      const rows = await lockPoints(tx, names);
      for (const row of rows)
        if (row.status !== "proposed")
          throw new ConflictError(
            `${row.name} is not proposed for pruning (it is ${row.status}); reload the queue.`,
          );
      for (const row of rows) {
        await tx.keyPoint.update({
          where: { name: row.name },
          data: { status: "active" satisfies KeyPointStatus, keptAtHarmful: row.harmful },
        });
        await auditLog.append(tx, {
          actor,
          action: "key_point.prune_reject",
          objectType: "key_point",
          objectId: row.name,
          before: { status: row.status, helpful: row.helpful, harmful: row.harmful },
          after: { status: "active" },
        });
      }
    });
  },

  /**
   * Restores a pruned point with its history. One whose counts still meet the rule goes back
   * to the queue (proposed), never straight into use; only one whose counts no longer meet it
   * (an import can change them) becomes active. Returns the status it now has.
   */
  async undo(name: string, actor: Actor): Promise<"active" | "proposed"> {
    return inTransaction(async (tx) => {
      const [row] = await lockPoints(tx, [name]);
      if (row!.status !== "pruned")
        throw new ConflictError(`${name} is not pruned (it is ${row!.status}).`);
      const status = shouldPrune(row!) ? "proposed" : "active";
      await tx.keyPoint.update({
        where: { name },
        data: { status, prunedAt: null, keptAtHarmful: null },
      });
      await auditLog.append(tx, {
        actor,
        action: "key_point.prune_undo",
        objectType: "key_point",
        objectId: name,
        before: { status: "pruned", helpful: row!.helpful, harmful: row!.harmful },
        after: { status },
      });
      return status;
    });
  },

  /** The most recent proposals withdrawn because their counts changed, newest first, for the queue page. */
  async recentlyWithdrawn(limit: number): Promise<WithdrawnProposal[]> {
    const entries = await auditLog.list({
      action: WITHDRAWN_ACTION,
      objectType: "key_point",
      limit,
    });
    return entries.map((e) => {
      const after = (e.after ?? {}) as { helpful?: unknown; harmful?: unknown };
      return {
        name: e.objectId,
        helpful: Number(after.helpful ?? 0),
        harmful: Number(after.harmful ?? 0),
        at: e.at,
        by: e.actorLabel,
      };
    });
  },
} as const;
