import {
  formatIssue,
  parseConstitution,
  type ConstitutionFile,
  type ConstitutionIssue,
} from "@/lib/constitution";
import { ConflictError, ValidationError } from "@/lib/errors";
import { auditLog, type Actor } from "./audit";
import { changeBus } from "./change-bus";
import { constitutionModels } from "./constitution-models";
import { HEAD_ID, meta, parsed, type VersionMeta } from "./constitution-rows";
import { contentHash } from "./version-parse";

/** A constitution refused on save: `issues` locate every problem. */
export class ConstitutionInvalidError extends ValidationError {
  constructor(readonly issues: ConstitutionIssue[]) {
    super(
      `The constitution has ${issues.length} ${issues.length === 1 ? "problem" : "problems"}; nothing was saved.\n${issues.map(formatIssue).join("\n")}`,
      issues.map((i) => ({
        path: `${i.file}:${i.line}:${i.column}`,
        message: `${i.field}: ${i.reason}`,
        ...i,
      })),
    );
  }
}

/** The advisory lock saves of the constitution take in turn. */
const SAVE_LOCK = 0x63687376; // "chsv"

/**
 * Saves a whole file set as the next version; `baseVersionId` null only for the very first version.
 * `file` names the one file a change replaced, and `details` say more about the change
 * (a label's turn, say), for the audit row.
 */
export async function saveVersion(
  input: {
    files: ConstitutionFile[];
    baseVersionId: number | null;
    message: string;
    action?: string;
    file?: string;
    details?: Record<string, unknown>;
  },
  actor: Actor,
): Promise<VersionMeta> {
  const result = parseConstitution(input.files);
  if (!result.ok) throw new ConstitutionInvalidError(result.issues);
  const files = [...input.files].sort((a, b) => a.path.localeCompare(b.path));
  const hash = contentHash(files);
  // Announced with the transaction: every instance drops its head at commit and builds the new index.
  return changeBus.transaction(async (tx, announce) => {
    // Saves take turns, so a version's number is the last one's + 1, taken inside the save:
    // the numbers people see have no gaps, whatever rolled back before (a sequence would skip).
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SAVE_LOCK})`;
    const head = await tx.constitutionHead.findUnique({ where: { id: HEAD_ID } });
    if ((head?.versionId ?? null) !== input.baseVersionId) {
      throw new ConflictError(
        head
          ? `Version ${head.versionId} was saved after the version ${input.baseVersionId ?? "(none)"} you edited. Reload to see it, then apply your change again.`
          : "There is no constitution yet to base a change on.",
        { currentVersionId: head?.versionId ?? null },
      );
    }
    if (head) {
      const currentRow = await tx.constitutionVersion.findUnique({
        where: { id: head.versionId },
        select: { contentHash: true },
      });
      if (currentRow?.contentHash === hash)
        throw new ValidationError(
          "Nothing changed: the constitution is the same as the current version.",
        );
    }
    // The column's sequence is kept past it, for any row written without a number.
    const [numbered] = await tx.$queryRaw<{ next: number }[]>`
      SELECT n AS next, setval(pg_get_serial_sequence('constitution_version', 'id'), n) AS kept
      FROM (SELECT (coalesce(max(id), 0) + 1)::int AS n FROM constitution_version) AS x`;
    const row = await tx.constitutionVersion.create({
      data: {
        id: numbered!.next,
        contentHash: hash,
        files,
        authorId: actor.id,
        authorLabel: actor.label,
        message: input.message,
        parentId: head?.versionId ?? null,
      },
    });
    // Compare-and-set: only the save that still sees its base moves the head.
    const moved = head
      ? await tx.constitutionHead.updateMany({
          where: { id: HEAD_ID, versionId: input.baseVersionId! },
          data: { versionId: row.id },
        })
      : await tx.constitutionHead.createMany({
          data: [{ id: HEAD_ID, versionId: row.id }],
          skipDuplicates: true,
        });
    if (moved.count !== 1)
      throw new ConflictError(
        "Another save landed at the same moment. Reload and apply your change again.",
      );
    await auditLog.append(tx, {
      actor,
      action: input.action ?? "constitution.save",
      objectType: "constitution",
      objectId: String(row.id),
      before: head ? { version: head.versionId } : undefined,
      after: {
        version: row.id,
        content_hash: hash,
        message: input.message,
        ...(input.file ? { file: input.file } : {}),
        ...input.details,
      },
    });
    // Its learned weights are fitted in the background (lib/services/learned.ts).
    await constitutionModels.queueFit(tx, row.id);
    await announce({ topic: "constitution", id: String(row.id) });
    parsed.set(row.id, {
      ...meta(row),
      files,
      constitution: result.constitution,
      evals: result.evals,
    });
    return meta(row);
  });
}
