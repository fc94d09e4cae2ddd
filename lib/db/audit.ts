import type { Prisma } from "./generated/prisma/client";
import { db } from "./client";

/** Who did it: a user id (null for the system) and a readable label. */
export type Actor = { id: string | null; label: string };

export const SYSTEM_ACTOR: Actor = { id: null, label: "system" };

export type AuditInput = {
  actor: Actor;
  action: string;
  objectType: string;
  objectId: string;
  before?: unknown;
  after?: unknown;
};

export type AuditEntry = {
  id: string;
  at: Date;
  actorId: string | null;
  actorLabel: string;
  action: string;
  objectType: string;
  objectId: string;
  before: unknown;
  after: unknown;
};

type Tx = Prisma.TransactionClient;

function json(value: unknown): Prisma.InputJsonValue | undefined {
  return value === undefined || value === null ? undefined : (JSON.parse(JSON.stringify(value)) as Prisma.InputJsonValue);
}

/**
 * The audit log repository. It can append and read, nothing else: the table is
 * append-only, and a database trigger refuses UPDATE and DELETE from anywhere.
 * Call `append` inside the same transaction as the change it records.
 */
export const auditLog = {
  async append(tx: Tx, entry: AuditInput): Promise<void> {
    await tx.auditLog.create({
      data: {
        actorId: entry.actor.id,
        actorLabel: entry.actor.label,
        action: entry.action,
        objectType: entry.objectType,
        objectId: entry.objectId,
        before: json(entry.before),
        after: json(entry.after),
      },
    });
  },

  /** Newest first, keyset-paginated by id. */
  async list(options: { before?: string; limit?: number; objectType?: string; action?: string } = {}): Promise<AuditEntry[]> {
    const limit = Math.min(Math.max(options.limit ?? 50, 1), 200);
    const rows = await db().auditLog.findMany({
      where: {
        ...(options.before ? { id: { lt: BigInt(options.before) } } : {}),
        ...(options.objectType ? { objectType: options.objectType } : {}),
        ...(options.action ? { action: options.action } : {}),
      },
      orderBy: { id: "desc" },
      take: limit,
    });
    return rows.map((row) => ({ ...row, id: row.id.toString() }));
  },
} as const;
