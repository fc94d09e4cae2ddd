import { principleToYaml } from "@/lib/constitution/serialize";
import { draftToPrinciple, type PrincipleDraft } from "./principle-draft";
import { patchYaml, type YamlEdit } from "./yaml-patch";

type Path = readonly (string | number)[];

/**
 * How fine the edits are. `appendToLists`: a list that grew at its end gets the new items
 * appended, keeping the rest of it as written; otherwise the whole list is set. Appending
 * can change what a file means when the item belongs elsewhere (a keyword appended to
 * `keywords` while `keywords_block` follows), which the caller's read-back check catches.
 */
export type EditGrain = { appendToLists: boolean };

/** The grains a writer tries, finest first. */
export const GRAINS: readonly EditGrain[] = [{ appendToLists: true }, { appendToLists: false }];

export const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The edits that turn the value `was` at `path` into `is`, descending into mappings so
 * that only changed keys are written; a key added to a mapping goes at its end.
 */
export function valueEdits(path: Path, was: unknown, is: unknown, grain: EditGrain): YamlEdit[] {
  if (same(was, is)) return [];
  if (is === undefined) return [{ op: "delete", path }];
  if (
    Array.isArray(was) &&
    Array.isArray(is) &&
    grain.appendToLists &&
    was.length > 0 &&
    is.length > was.length &&
    same(is.slice(0, was.length), was)
  ) {
    return is.slice(was.length).map((value) => ({ op: "append", path, value }));
  }
  if (isPlainObject(was) && isPlainObject(is)) {
    return [...new Set([...Object.keys(was), ...Object.keys(is)])].flatMap((key) =>
      valueEdits([...path, key], was[key], is[key], grain),
    );
  }
  return [{ op: "set", path, value: is }];
}

/**
 * The edits from a principle list as read (`from`) to the form's list (`to`), matched by
 * row key, at `path` (`principles`, `additional_principles`). Null when rows were reordered
 * (the form only appends and removes), so the caller writes the file in full.
 */
export function principleListEdits(
  path: string,
  from: readonly PrincipleDraft[],
  to: readonly PrincipleDraft[],
  domain: string | null,
  grain: EditGrain,
): YamlEdit[] | null {
  const asYaml = (p: PrincipleDraft) =>
    principleToYaml(draftToPrinciple(p, domain), domain !== null);
  const oldIndex = new Map(from.map((p, i) => [p.key, i]));
  const kept = new Set<string>();
  const edits: YamlEdit[] = [];
  let previous = -1;
  let appended = false;
  for (const p of to) {
    const j = oldIndex.get(p.key);
    if (j === undefined) {
      edits.push(
        from.length === 0
          ? { op: "set", path: [path], value: to.map(asYaml) }
          : { op: "append", path: [path], value: asYaml(p) },
      );
      if (from.length === 0) return edits;
      appended = true;
      continue;
    }
    if (j < previous || appended) return null;
    previous = j;
    kept.add(p.key);
    const before = from[j]!;
    if (p === before) continue;
    const [was, is] = [asYaml(before), asYaml(p)];
    edits.push(...valueEdits([path, j], was, is, grain));
    // The form merges keywords_block and keywords_style into keywords; a rewritten list replaces them.
    if (!same(was.keywords, is.keywords))
      edits.push(
        { op: "delete", path: [path, j, "keywords_block"] },
        { op: "delete", path: [path, j, "keywords_style"] },
      );
  }
  from.forEach((p, j) => {
    if (!kept.has(p.key)) edits.push({ op: "delete", path: [path, j] });
  });
  if (to.length === 0 && from.length > 0) return [{ op: "delete", path: [path] }];
  return edits;
}

/**
 * The text a form's draft describes, changed only where the draft differs from the one the
 * text was read as: each grain's edits are tried, finest first, and the first whose result
 * reads back as the draft (`readsBackAs`) wins. Null when none does; the caller then writes
 * the whole file.
 */
export function patchedText(
  text: string,
  editsFor: (grain: EditGrain) => YamlEdit[] | null,
  readsBackAs: (patched: string) => boolean,
): string | null {
  for (const grain of GRAINS) {
    const edits = editsFor(grain);
    const patched = edits && patchYaml(text, edits);
    if (patched !== null && patched !== undefined && readsBackAs(patched)) return patched;
  }
  return null;
}
