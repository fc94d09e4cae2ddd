import { createHash } from "node:crypto";
import type { Constitution, ConstitutionFile } from "@/lib/constitution";
import { LexicalIndex } from "@/lib/constitution/lexical";
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

/**
 * The lexical index of the parse kept under `cacheKey`: loaded from its snapshot when this
 * engine build made one (building it is about a quarter of `charter retrieve`), else built
 * and kept beside the parse, invalidated with it. A snapshot that does not load is rebuilt.
 */
export function lexicalIndexFor(cacheKey: string, constitution: Constitution): LexicalIndex {
  const kept = parsedSnapshots.readIndex(cacheKey);
  if (kept) {
    try {
      return new LexicalIndex(constitution, kept);
    } catch {
      // written by a MiniSearch that serialises differently: built anew below
    }
  }
  const index = new LexicalIndex(constitution);
  parsedSnapshots.writeIndex(cacheKey, index.toSnapshot());
  return index;
}
