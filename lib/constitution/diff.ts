import { createTwoFilesPatch, diffLines } from "diff";
import type { ConstitutionFile } from "./parse";

export type FileDiff = {
  path: string;
  status: "added" | "removed" | "changed" | "unchanged";
  additions: number;
  deletions: number;
  patch: string;
};

/** Line diffs, file by file, between two versions' files (unchanged files included, patch empty). */
export function diffFiles(
  before: readonly ConstitutionFile[],
  after: readonly ConstitutionFile[],
): FileDiff[] {
  const a = new Map(before.map((f) => [f.path, f.text]));
  const b = new Map(after.map((f) => [f.path, f.text]));
  const paths = [...new Set([...a.keys(), ...b.keys()])].sort((x, y) =>
    x === "core.yaml" ? -1 : y === "core.yaml" ? 1 : x.localeCompare(y),
  );
  return paths.map((path) => {
    const oldText = a.get(path) ?? "";
    const newText = b.get(path) ?? "";
    const status = !a.has(path)
      ? "added"
      : !b.has(path)
        ? "removed"
        : oldText === newText
          ? "unchanged"
          : "changed";
    if (status === "unchanged") return { path, status, additions: 0, deletions: 0, patch: "" };
    let additions = 0;
    let deletions = 0;
    for (const part of diffLines(oldText, newText)) {
      if (part.added) additions += part.count ?? 0;
      if (part.removed) deletions += part.count ?? 0;
    }
    return {
      path,
      status,
      additions,
      deletions,
      patch: createTwoFilesPatch(`a/${path}`, `b/${path}`, oldText, newText, "", "", {
        context: 3,
      }),
    };
  });
}
