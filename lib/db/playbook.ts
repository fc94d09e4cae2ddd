import { randomUUID } from "node:crypto";
import {
  formatKeypointName,
  formatPlaybook,
  highestKptNumber,
  PLAYBOOK_VERSION,
  quoteText,
  trustRatio,
  type ExtractionResult,
  type Playbook,
  type PlaybookEntry,
} from "@/lib/playbook";
import { NotFoundError } from "@/lib/errors";
import type { Prisma } from "./generated/prisma/client";
import { auditLog, type Actor } from "./audit";
import { db } from "./client";
import { pruneQueue, recheckProposals } from "./prune-queue";

type Tx = Prisma.TransactionClient;
// Many reflections may land at once (a batch of SessionEnds): wait for a connection rather than fail.
const TX_OPTIONS = { maxWait: 30_000, timeout: 30_000 };
export type KeyPointStatus = "active" | "proposed" | "pruned";
export type KeyPointRow = PlaybookEntry & {
  status: KeyPointStatus;
  trust: number | undefined;
  lastEvaluatedAt: Date | null;
  createdAt: Date;
  prunedAt: Date | null;
  source: string;
};

/** Key point names come from the sequence key_point_name_seq: never reused, even after a prune, and safe under concurrent reflections. */
async function nextName(tx: Tx): Promise<string> {
  const [row] = await tx.$queryRaw<{ n: bigint }[]>`SELECT nextval('key_point_name_seq') AS n`;
  return formatKeypointName(row!.n);
}

/** The fields of an entry the database keeps. */
const ENTRY_FIELDS = new Set(["name", "text", "helpful", "harmful"]);
/** The advisory lock namespace (first key) for adding a key point text. */
const SAME_TEXT_LOCK = 4004;
/** The largest `kpt_` number the sequence (a bigint) can move past. */
const MAX_SEQUENCE = 10n ** 18n;

/**
 * Moves the name sequence past `atLeast` and past every stored `kpt_` number (as
 * seed 004 numbers them: `kpt_12_x` is 12), never backwards; other names do not count.
 */
async function moveSequencePast(tx: Tx, atLeast: bigint): Promise<void> {
  const floor = atLeast < MAX_SEQUENCE ? atLeast : 0n;
  await tx.$executeRaw`
    SELECT setval('key_point_name_seq', GREATEST(v, 1), v > 0) FROM (
      SELECT GREATEST(
        (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM key_point_name_seq),
        (SELECT coalesce(max(substring(name from '^kpt_([0-9]{1,18})(?:_|$)')::bigint), 0) FROM key_point),
        ${floor}::bigint) AS v) AS target`;
}

/** The playbook in the database: entries, evaluation events as evidence, prune proposals decided by people. */
export const playbookStore = {
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
      status: r.status as KeyPointStatus,
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
    return row;
  },

  async add(text: string, actor: Actor): Promise<string> {
    return db().$transaction(async (tx) => {
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
    await db().$transaction(async (tx) => {
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

  /**
   * Applies an ExtractionResult (seed 004's update, approval mode): new key points
   * with zero counters, named from the sequence (a name is never given twice, even
   * after a prune); a new text equal to a stored key point's (active, proposed or
   * pruned) is skipped; each helpful or harmful rating is stored as an event and
   * counted in SQL; neutral ones change nothing; unknown ratings, unknown or pruned
   * names change nothing. Every skipped item is named in `warnings` (after the
   * extraction's own). Counts are incremented in SQL, one point at a time in name
   * order (so two reflections, or a reflection and an approval, lock rows in one
   * order). Then the prune queue is re-checked (see recheckProposals): a proposal
   * the new counts no longer support is withdrawn; nothing is removed here.
   */
  async applyExtraction(
    extraction: ExtractionResult,
    sessionId: string | null,
    actor: Actor,
  ): Promise<{
    added: string[];
    evaluated: number;
    proposed: string[];
    withdrawn: string[];
    warnings: string[];
  }> {
    return db().$transaction(async (tx) => {
      const warnings = [...(extraction.warnings ?? [])];
      const texts = [
        ...new Set(extraction.new_key_points.map((t) => t.trim()).filter((t) => t !== "")),
      ];
      // Two reflections adding one text at once: the second waits, then sees the first's row.
      for (const text of [...texts].sort())
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SAME_TEXT_LOCK}::int, hashtext(${text}))`;
      const stored = texts.length
        ? await tx.$queryRaw<{ name: string; text: string; status: string }[]>`
            SELECT name, text, status FROM key_point WHERE regexp_replace(text, '^[[:space:]]+|[[:space:]]+$', '', 'g') = ANY(${texts}::text[]) ORDER BY name`
        : [];
      const byText = new Map<string, { name: string; status: string }>();
      for (const row of stored) if (!byText.has(row.text.trim())) byText.set(row.text.trim(), row);
      const added: string[] = [];
      for (const given of extraction.new_key_points) {
        const text = given.trim();
        if (text === "") {
          warnings.push("an empty new key point was skipped");
          continue;
        }
        const same = byText.get(text);
        if (same) {
          warnings.push(
            `the new key point ${quoteText(text)} has the same text as ${same.name}${same.status === "pruned" ? " (pruned: undo the prune to use it again)" : ""}: skipped`,
          );
          continue;
        }
        const name = await nextName(tx);
        await tx.keyPoint.create({
          data: { name, text, source: "reflector", createdInSession: sessionId },
        });
        byText.set(text, { name, status: "active" });
        added.push(name);
      }
      const rated = [...new Set(extraction.evaluations.map((e) => e.name))];
      const status = new Map(
        (
          await tx.keyPoint.findMany({
            where: { name: { in: rated } },
            select: { name: true, status: true },
          })
        ).map((r) => [r.name, r.status]),
      );
      const counted: { name: string; rating: "helpful" | "harmful" }[] = [];
      for (const { name, rating } of extraction.evaluations) {
        const current = status.get(name);
        if (current === undefined)
          warnings.push(`a rating of ${name}, which is not in the playbook, was ignored`);
        else if (current === "pruned")
          warnings.push(`a rating of ${name}, which is pruned, was ignored`);
        else if (rating !== "helpful" && rating !== "harmful" && rating !== "neutral")
          warnings.push(
            `the rating ${JSON.stringify(rating)} of ${name} is not helpful, harmful or neutral: no change`,
          );
        if (
          current === undefined ||
          current === "pruned" ||
          (rating !== "helpful" && rating !== "harmful")
        )
          continue;
        counted.push({ name, rating });
      }
      const landed = new Set<string>();
      for (const name of [...new Set(counted.map((c) => c.name))].sort()) {
        const helpful = counted.filter((c) => c.name === name && c.rating === "helpful").length;
        const harmful = counted.filter((c) => c.name === name && c.rating === "harmful").length;
        // Re-read under the row lock: an approval that committed meanwhile wins, and the ratings are not counted.
        const updated =
          await tx.$executeRaw`UPDATE key_point SET helpful = helpful + ${helpful}, harmful = harmful + ${harmful}, updated_at = now() WHERE name = ${name} AND status <> 'pruned'`;
        if (updated === 0)
          warnings.push(`the ratings of ${name} were ignored: it was pruned meanwhile`);
        else landed.add(name);
      }
      const kept = counted.filter((c) => landed.has(c.name));
      for (const { name, rating } of kept)
        await tx.keyPointEvaluation.create({ data: { id: randomUUID(), name, sessionId, rating } });
      const evaluated = kept.length;
      const { proposed, withdrawn } = await recheckProposals(tx, [...landed], actor);
      await auditLog.append(tx, {
        actor,
        action: "playbook.apply_extraction",
        objectType: "session",
        objectId: sessionId ?? "(none)",
        after: {
          added,
          evaluated,
          proposed,
          ...(withdrawn.length ? { withdrawn } : {}),
          ...(warnings.length ? { warnings } : {}),
        },
      });
      return { added, evaluated, proposed, withdrawn, warnings };
    }, TX_OPTIONS);
  },

  /** Approves prune proposals that still meet the rule under a row lock (see pruneQueue.approve); undo restores them with their history. */
  approve: pruneQueue.approve,
  /** Rejects prune proposals: the entries stay, and are proposed again only if their harmful count grows. */
  reject: pruneQueue.reject,
  /** Restores a pruned entry: to the queue if its counts still meet the rule, else into use. */
  undo: pruneQueue.undo,

  /**
   * Imports a canonical playbook. An entry whose name is free, or names an entry with
   * the same text, is created or has its counters replaced; one whose name belongs to
   * a different key point gets a new name, so an import never overwrites another
   * point. Names that are not `kpt_NNN` are kept. The name sequence moves past the
   * imported `kpt_` numbers, never back. Other fields of an entry have no column:
   * they are listed in `unkept`. The prune queue is re-checked with the new counts; a
   * pruned point stays pruned whatever its new counts (undo decides by them).
   */
  async importPlaybook(
    playbook: Playbook,
    actor: Actor,
  ): Promise<{
    created: number;
    updated: number;
    renamed: { from: string; to: string }[];
    unkept: string[];
    proposed: string[];
    withdrawn: string[];
  }> {
    return db().$transaction(async (tx) => {
      const unkept = new Set<string>();
      let created = 0;
      let updated = 0;
      const renamed: { from: string; to: string }[] = [];
      const written: string[] = [];
      await moveSequencePast(tx, highestKptNumber(playbook.key_points.map((k) => k.name)));
      for (const k of playbook.key_points) {
        const existing = await tx.keyPoint.findUnique({ where: { name: k.name } });
        if (existing && existing.text === k.text) {
          await tx.keyPoint.update({
            where: { name: k.name },
            data: { helpful: k.helpful, harmful: k.harmful },
          });
          written.push(k.name);
          updated++;
        } else if (existing) {
          const name = await nextName(tx);
          await tx.keyPoint.create({
            data: { name, text: k.text, helpful: k.helpful, harmful: k.harmful, source: "import" },
          });
          renamed.push({ from: k.name, to: name });
          written.push(name);
          created++;
        } else {
          await tx.keyPoint.create({
            data: {
              name: k.name,
              text: k.text,
              helpful: k.helpful,
              harmful: k.harmful,
              source: "import",
            },
          });
          written.push(k.name);
          created++;
        }
        for (const field of Object.keys(k)) if (!ENTRY_FIELDS.has(field)) unkept.add(field);
      }
      const { proposed, withdrawn } = await recheckProposals(tx, written, actor);
      await auditLog.append(tx, {
        actor,
        action: "playbook.import",
        objectType: "playbook",
        objectId: "playbook",
        after: { created, updated, renamed, proposed, ...(withdrawn.length ? { withdrawn } : {}) },
      });
      return { created, updated, renamed, unkept: [...unkept], proposed, withdrawn };
    });
  },

  /** The playbook as a canonical file (pruned entries left out). */
  async exportPlaybook(): Promise<Playbook> {
    const rows = await db().keyPoint.findMany({
      where: { status: { not: "pruned" } },
      orderBy: { name: "asc" },
    });
    return {
      version: PLAYBOOK_VERSION,
      last_updated: new Date().toISOString(),
      key_points: rows.map((r) => ({
        name: r.name,
        text: r.text,
        helpful: r.helpful,
        harmful: r.harmful,
      })),
    };
  },

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

  /** The most trusted active key points, for injection, formatted as seed 004's lines: a proposed or pruned point is never given to an agent. */
  async forInjection(limit: number): Promise<{ names: string[]; text: string }> {
    if (limit <= 0) return { names: [], text: "" };
    const rows = await db().$queryRaw<PlaybookEntry[]>`
      SELECT name, text, helpful, harmful FROM key_point WHERE status = 'active'
      ORDER BY (helpful + 1)::float8 / (helpful + harmful + 2) DESC, name LIMIT ${limit}`;
    return { names: rows.map((r) => r.name), text: formatPlaybook(rows) };
  },
} as const;
