import { NotFoundError } from "@/lib/errors";
import { formatPlaybook, trustRatio, type PlaybookEntry } from "@/lib/playbook";
import { keyPointStatusSchema, type KeyPointStatus } from "@/lib/schemas/statuses";
import { auditLog, type Actor } from "./audit";
import { db } from "./client";
import { inTransaction } from "./transaction";
import { parseColumn } from "./json-column";
import { applyExtraction } from "./key-point-extraction";
import { nextName } from "./key-point-names";
import { exportPlaybook, importPlaybook } from "./playbook-file";
import { pruneQueue } from "./prune-queue";

export type { KeyPointStatus };
export type KeyPointRow = PlaybookEntry & {
  status: KeyPointStatus;
  trust: number | undefined;
  lastEvaluatedAt: Date | null;
  createdAt: Date;
  prunedAt: Date | null;
  source: string;
};

/** The order in which active key points are given to agents, most trusted first (event ingestion reads it in its own statement). */
export const PLAYBOOK_INJECTION_ORDER =
  "(helpful + 1)::float8 / (helpful + harmful + 2) DESC, name";

/** key_point.status, checked. */
const statusOf = (row: { name: string; status: string }): KeyPointStatus =>
  parseColumn(keyPointStatusSchema, row.status, {
    table: "key_point",
    id: row.name,
    field: "status",
  });

/** The playbook in the database: entries, evaluation events as evidence, prune proposals decided by people. */
export const keyPoints = {
  async list(
    options: { status?: KeyPointStatus | "all"; q?: string } = {},
  ): Promise<KeyPointRow[]> {
    const rows = await db().keyPoint.findMany({
      where: {
        ...(options.status && options.status !== "all" ? { status: options.status } : {}),
        ...(options.q ? { text: { contains: options.q, mode: "insensitive" as const } } : {}),
      },
      orderBy: { name: "asc" },
      include: {
        evaluations: { orderBy: { createdAt: "desc" }, take: 1, select: { createdAt: true } },
      },
    });
    return rows.map((r) => ({
      name: r.name,
      text: r.text,
      helpful: r.helpful,
      harmful: r.harmful,
      status: statusOf(r),
      trust: trustRatio(r),
      lastEvaluatedAt: r.evaluations[0]?.createdAt ?? null,
      createdAt: r.createdAt,
      prunedAt: r.prunedAt,
      source: r.source,
    }));
  },

  /** A key point with its evaluation events (and the sessions behind them). */
  async get(name: string) {
    const row = await db().keyPoint.findUnique({
      where: { name },
      include: { evaluations: { orderBy: { createdAt: "desc" } } },
    });
    if (!row) throw new NotFoundError(`No key point ${name}.`);
    return { ...row, status: statusOf(row) };
  },

  async add(text: string, actor: Actor): Promise<string> {
    return inTransaction(async (tx) => {
      const name = await nextName(tx);
      await tx.keyPoint.create({ data: { name, text, source: "manual" } });
      await auditLog.append(tx, {
        actor,
        action: "key_point.create",
        objectType: "key_point",
        objectId: name,
        after: { text },
      });
      return name;
    });
  },

  async edit(name: string, text: string, actor: Actor): Promise<void> {
    await inTransaction(async (tx) => {
      const before = await tx.keyPoint.findUnique({ where: { name } });
      if (!before) throw new NotFoundError(`No key point ${name}.`);
      await tx.keyPoint.update({ where: { name }, data: { text } });
      await auditLog.append(tx, {
        actor,
        action: "key_point.edit",
        objectType: "key_point",
        objectId: name,
        before: { text: before.text },
        after: { text },
      });
    });
  },

  applyExtraction,

  /** Approves prune proposals that still meet the rule under a row lock (see pruneQueue.approve); undo restores them with their history. */
  approve: pruneQueue.approve,
  /** Rejects prune proposals: the entries stay, and are proposed again only if their harmful count grows. */
  reject: pruneQueue.reject,
  /** Restores a pruned entry: to the queue if its counts still meet the rule, else into use. */
  undo: pruneQueue.undo,

  importPlaybook,
  exportPlaybook,

  /** The key points with these names, by name, whatever their status (what a session was given). */
  async byNames(names: string[]): Promise<PlaybookEntry[]> {
    if (names.length === 0) return [];
    const rows = await db().keyPoint.findMany({
      where: { name: { in: names } },
      orderBy: { name: "asc" },
    });
    return rows.map((k) => ({
      name: k.name,
      text: k.text,
      helpful: k.helpful,
      harmful: k.harmful,
    }));
  },

  /** The most trusted active key points, for injection, formatted as the playbook spec's lines: a proposed or pruned point is never given to an agent. */
  async forInjection(limit: number): Promise<{ names: string[]; text: string }> {
    if (limit <= 0) return { names: [], text: "" };
    const rows = await db().$queryRawUnsafe<PlaybookEntry[]>(
      `SELECT name, text, helpful, harmful FROM key_point WHERE status = 'active'
       ORDER BY ${PLAYBOOK_INJECTION_ORDER} LIMIT $1::int`,
      limit,
    );
    return { names: rows.map((r) => r.name), text: formatPlaybook(rows) };
  },
} as const;
