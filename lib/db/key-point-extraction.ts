import { randomUUID } from "node:crypto";
import { quoteText, type ExtractionResult } from "@/lib/playbook";
import { auditLog, type Actor } from "./audit";
import { inTransaction } from "./transaction";
import { nextName } from "./key-point-names";
import { recheckProposals } from "./prune-queue";

// Many reflections may land at once (a batch of SessionEnds): wait for a connection rather than fail.
const TX_OPTIONS = { maxWait: 30_000, timeout: 30_000 };
/** The advisory lock namespace (first key) for adding a key point text. */
const SAME_TEXT_LOCK = 4004;

/**
 * Applies an ExtractionResult (the playbook spec's update, approval mode): new key points
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
export async function applyExtraction(
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
  return inTransaction(async (tx) => {
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
}
