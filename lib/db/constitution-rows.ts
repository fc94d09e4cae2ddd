import type { Constitution, ConstitutionFile, EvalSet } from "@/lib/constitution";
import { constitutionFilesSchema, type VersionMeta } from "@/lib/schemas/constitution-rows";
import { parseColumn } from "./json-column";
import { parseStoredVersion } from "./version-parse";

export type { VersionMeta };
export type Version = VersionMeta & {
  files: ConstitutionFile[];
  constitution: Constitution;
  evals: EvalSet;
};

/** The single constitution_head row's id. */
export const HEAD_ID = 1;

export function meta(row: VersionMeta): VersionMeta {
  return {
    id: row.id,
    contentHash: row.contentHash,
    authorLabel: row.authorLabel,
    message: row.message,
    parentId: row.parentId,
    createdAt: row.createdAt,
  };
}

// Parsed versions are immutable, so they are kept once parsed.
export const parsed = new Map<number, Version>();

export async function toVersion(
  row: Parameters<typeof meta>[0] & { files: unknown },
): Promise<Version> {
  const hit = parsed.get(row.id);
  if (hit) return hit;
  const files = parseColumn(constitutionFilesSchema, row.files, {
    table: "constitution_version",
    id: row.id,
    field: "files",
  });
  const version = { ...meta(row), files, ...(await parseStoredVersion(row.id, files)) };
  parsed.set(row.id, version);
  return version;
}
