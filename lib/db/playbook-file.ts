import { highestKptNumber, PLAYBOOK_VERSION, type Playbook } from "@/lib/playbook";
import { auditLog, type Actor } from "./audit";
import { db } from "./client";
import { inTransaction } from "./transaction";
import { moveSequencePast, nextName } from "./key-point-names";
import { recheckProposals } from "./prune-queue";

/** The fields of an entry the database keeps. */
const ENTRY_FIELDS = new Set(["name", "text", "helpful", "harmful"]);

/**
 * Imports a canonical playbook. An entry whose name is free, or names an entry with
 * the same text, is created or has its counters replaced; one whose name belongs to
 * a different key point gets a new name, so an import never overwrites another
 * point. Names that are not `kpt_NNN` are kept. The name sequence moves past the
 * imported `kpt_` numbers, never back. Other fields of an entry have no column:
 * they are listed in `unkept`. The prune queue is re-checked with the new counts; a
 * pruned point stays pruned whatever its new counts (undo decides by them).
 */
export async function importPlaybook(
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
  return inTransaction(async (tx) => {
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
}

/** The playbook as a canonical file (pruned entries left out). */
export async function exportPlaybook(): Promise<Playbook> {
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
}
