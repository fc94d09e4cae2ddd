import { createHash } from "node:crypto";
import type { ConstitutionFile } from "@/lib/constitution";
import { formatIssue } from "@/lib/constitution/schema";
import { canonicalFiles } from "@/lib/constitution/canonical";
import { parsedSnapshots, type ParsedVersion } from "@/lib/files/parsed-snapshots";

// No database client here, and the YAML parser only on a snapshot miss: `charter retrieve`'s
// short path (lib/db/head-reader.ts) reads versions with this module, and loading Prisma or
// the yaml library would be most of its start-up.

export function contentHash(files: readonly ConstitutionFile[]): string {
  return createHash("sha256").update(canonicalFiles(files)).digest("hex");
}

/** A stored version that no longer validates: the engine's rules changed since it was saved. */
export class StoredVersionInvalidError extends Error {}

/**
 * The parse of stored version `id`, from the on-disk snapshot when this build made one.
 * Keyed by the files' own hash, recomputed here: the stored column is not trusted to name its files.
 */
export async function parseStoredVersion(
  id: number,
  files: ConstitutionFile[],
): Promise<ParsedVersion> {
  const key = contentHash(files);
  const cached = parsedSnapshots.read(key);
  if (cached) return cached;
  const { parseStoredConstitution } = await import("@/lib/constitution/parse");
  const result = parseStoredConstitution(files);
  // Saved versions were validated; the limits added since (sizes, control characters) do not apply to
  // what is stored, so old versions keep loading. A failure here means the rules changed since.
  if (!result.ok)
    throw new StoredVersionInvalidError(
      `Stored constitution version ${id} no longer validates:\n${result.issues.map(formatIssue).join("\n")}`,
    );
  const fresh = { constitution: result.constitution, evals: result.evals };
  parsedSnapshots.write(key, fresh);
  return fresh;
}
