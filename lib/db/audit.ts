import {
  checkRows,
  type ChainBreak,
  type ChainCursor,
  type ChainRow,
  type ExpectedHead,
} from "./audit-chain";
import type { Prisma } from "./generated/prisma/client";
import { db } from "./client";
import { inTransaction } from "./transaction";

import type { ChainReport } from "@/lib/schemas/audit-rows";

export type { ChainBreak } from "./audit-chain";
export type { ChainReport };

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
  return value === undefined || value === null
    ? undefined
    : (JSON.parse(JSON.stringify(value)) as Prisma.InputJsonValue);
}

/**
 * The audit log repository. It can append and read, nothing else: the table is
 * append-only, and a database trigger refuses UPDATE and DELETE from anywhere.
 * Call `append` inside the same transaction as the change it records; the
 * database places the row in the hash chain (see `auditChain`). Call it last, after
 * every row lock the transaction takes: the chain's lock is held until commit, so a
 * transaction that appended and then waits for a row would hold up every audited
 * change (and could deadlock with the one holding that row).
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

  /** Appends in a transaction of its own: for a change whose rows were written elsewhere (an import's own transactions). */
  async record(entry: AuditInput): Promise<void> {
    await inTransaction((tx) => auditLog.append(tx, entry));
  },

  /** Newest first, keyset-paginated by id. */
  async list(
    options: { before?: string; limit?: number; objectType?: string; action?: string } = {},
  ): Promise<AuditEntry[]> {
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

const BATCH = 1000;

/** Rows the Audit page re-hashes per check: about 150 ms on PostgreSQL, 300 ms on PGlite (measured at 20,000 rows). */
export const RECENT_WINDOW = 1000;

/** How long the page reuses a check while the log has not grown. */
export const RECENT_TTL_MS = 30_000;

const recentCache = globalThis as unknown as {
  __charterAuditChainRecent?: { checkedAt: number; report: ChainReport };
};

// Fields exactly as the chain trigger hashes them: PostgreSQL prints jsonb and the timestamp.
// They are text, so ORDER BY must name the table's columns, not these aliases.
const CHAIN_COLUMNS = `"seq"::text AS "seq", "id"::text AS "id", to_char("at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "at",
  "actor_id" AS "actorId", "actor_label" AS "actorLabel", "action", "object_type" AS "objectType", "object_id" AS "objectId",
  "before"::text AS "before", "after"::text AS "after", "prev_hash" AS "prevHash", "hash"`;

/**
 * Verification of the audit log's hash chain. Every row carries seq (1, 2, 3, ...),
 * prev_hash and hash = SHA-256 of its canonical text (lib/db/audit-chain.ts); an
 * edit shows as a hash mismatch, a deletion as a gap, an insertion as a duplicate
 * seq, a prev_hash mismatch or a time earlier than its predecessor's.
 */
export const auditChain = {
  /**
   * Walks the chain in seq order, BATCH rows per query, so memory stays flat. With
   * `window`, only the newest `window` rows are checked (their first row's link to
   * the row before is taken on trust): the Audit page's bounded check.
   */
  async verify(
    options: { window?: number; maxBreaks?: number; expectHead?: ExpectedHead } = {},
  ): Promise<ChainReport> {
    const maxBreaks = options.maxBreaks ?? 100;
    let start = 1n;
    if (options.window !== undefined) {
      const [head] = await db().$queryRawUnsafe<{ seq: string | null }[]>(
        `SELECT max("seq")::text AS "seq" FROM "audit_log"`,
      );
      const top = head?.seq ? BigInt(head.seq) : 0n;
      const windowStart = top - BigInt(Math.max(1, options.window)) + 1n;
      if (windowStart > 1n) start = windowStart;
    }
    const complete = start === 1n;
    const breaks: ChainBreak[] = [];
    let omitted = 0;
    const add = (found: ChainBreak[]) => {
      for (const b of found) {
        if (breaks.length < maxBreaks) breaks.push(b);
        else omitted += 1;
      }
    };

    // Rows with no place in the chain sort nowhere: list them first.
    const strays = await db().$queryRawUnsafe<ChainRow[]>(
      `SELECT ${CHAIN_COLUMNS} FROM "audit_log" WHERE "seq" IS NULL OR "seq" < 1 ORDER BY "audit_log"."id" LIMIT ${maxBreaks + 1}`,
    );
    if (complete) add(checkRows(strays, null).breaks);

    let rows = 0;
    let first: string | null = null;
    let cursor: ChainCursor | null = null;
    let key = { seq: (start - 1n).toString(), id: "-1" };
    for (;;) {
      const batch = await db().$queryRawUnsafe<ChainRow[]>(
        `SELECT ${CHAIN_COLUMNS} FROM "audit_log" WHERE "seq" >= $1::bigint AND ("seq", "id") > ($2::bigint, $3::bigint) ORDER BY "audit_log"."seq", "audit_log"."id" LIMIT ${BATCH}`,
        start.toString(),
        key.seq,
        key.id,
      );
      if (batch.length === 0) break;
      const checked = checkRows(batch, cursor, { anchorOnly: cursor === null && !complete });
      add(checked.breaks);
      const expected = options.expectHead;
      const recorded = expected ? batch.find((r) => r.seq === expected.seq.toString()) : undefined;
      if (expected && recorded && recorded.hash !== expected.hash) {
        add([
          {
            seq: recorded.seq,
            id: recorded.id,
            kind: "rewritten",
            reason: `row ${expected.seq}: hash ${recorded.hash} is not the ${expected.hash} recorded earlier, the chain was rewritten up to it`,
          },
        ]);
      }
      cursor = checked.last ?? cursor;
      first ??= batch[0]?.seq ?? null;
      rows += batch.length;
      const last = batch.at(-1)!;
      key = { seq: last.seq!, id: last.id };
      if (batch.length < BATCH) break;
    }
    if (options.expectHead && (cursor === null || cursor.seq < options.expectHead.seq)) {
      const end = cursor ? `row ${cursor.seq}` : "no row";
      add([
        {
          seq: null,
          id: "",
          kind: "missing",
          reason: `row ${options.expectHead.seq}, recorded earlier, is gone: the chain ends at ${end}, its newest rows were deleted`,
        },
      ]);
    }
    return {
      intact: breaks.length === 0 && omitted === 0,
      rows,
      from: first,
      through: cursor ? cursor.seq.toString() : null,
      headHash: cursor?.hash ?? null,
      complete,
      breaks,
      breaksOmitted: omitted,
    };
  },

  /**
   * The bounded check the Audit page shows: the newest RECENT_WINDOW rows, reused
   * for RECENT_TTL_MS unless rows were added since. The full walk is `charter audit verify`.
   */
  async recent(): Promise<ChainReport> {
    const cached = recentCache.__charterAuditChainRecent;
    if (cached && Date.now() - cached.checkedAt < RECENT_TTL_MS) {
      const [head] = await db().$queryRawUnsafe<{ seq: string | null }[]>(
        `SELECT max("seq")::text AS "seq" FROM "audit_log"`,
      );
      if ((head?.seq ?? null) === cached.report.through) return cached.report;
    }
    const report = await auditChain.verify({ window: RECENT_WINDOW, maxBreaks: 10 });
    recentCache.__charterAuditChainRecent = { checkedAt: Date.now(), report };
    return report;
  },
} as const;
