import type { ConstitutionFile } from "./parse";

/** A stable digest input: the files sorted by path. Hash it outside the engine. */
export function canonicalFiles(files: readonly ConstitutionFile[]): string {
  return JSON.stringify(
    [...files].sort((x, y) => x.path.localeCompare(y.path)).map((f) => [f.path, f.text]),
  );
}
