import {
  CORE_FILE,
  differences,
  OVERLAYS_DIR,
  type ConstitutionIssue,
  type Overlay,
  type Principle,
} from "./schema";
import type { EvalCase } from "./eval-schema";
import { issueAt, type Located, type PathItem } from "./yaml-source";

/**
 * Duplicate ids and overrides of no principle. An id may be defined in two overlays
 * (moralstack activates one overlay at a time, so its files do that): identical
 * definitions are one principle; different ones load with a warning, each overlay
 * keeping its own, and overlay.ts decides when both are active. An id defined twice in
 * one file, or in core.yaml and an overlay, is refused: both would be in force at once.
 * An override of no principle changes nothing: a warning, as moralstack ignores it.
 */
export function crossFileIssues(
  core: Principle[],
  overlays: Overlay[],
  sources: Map<string, Located>,
  checkOverrides: boolean,
): { issues: ConstitutionIssue[]; warnings: ConstitutionIssue[] } {
  const issues: ConstitutionIssue[] = [];
  const warnings: ConstitutionIssue[] = [];
  type Place = { file: string; inCore: boolean; at: string; principle: Principle };
  const seen = new Map<string, Place[]>();
  const places: { file: string; path: PathItem[]; principle: Principle }[] = [
    ...core.map((principle, i) => ({ file: CORE_FILE, path: ["principles", i, "id"], principle })),
    ...overlays.flatMap((o) =>
      o.additional_principles.map((principle, i) => ({
        file: overlayFile(o.domain, sources),
        path: ["additional_principles", i, "id"],
        principle,
      })),
    ),
  ];
  for (const place of places) {
    const src = sources.get(place.file)!;
    const located = issueAt(src, place.path, "");
    const here: Place = {
      file: place.file,
      inCore: place.file === CORE_FILE,
      at: `${located.file}:${located.line}:${located.column}`,
      principle: place.principle,
    };
    const earlier = seen.get(place.principle.id) ?? [];
    seen.set(place.principle.id, [...earlier, here]);
    const clash = earlier.find((e) => e.file === here.file || e.inCore || here.inCore);
    if (clash) {
      issues.push({
        ...located,
        reason: `"${place.principle.id}" is already defined at ${clash.at}`,
      });
      continue;
    }
    const differing = earlier.find((e) => differences(e.principle, here.principle).length > 0);
    if (differing)
      warnings.push({
        ...located,
        reason: `"${place.principle.id}" is also defined at ${differing.at}, with a different ${differences(differing.principle, here.principle).join(", ")}: each overlay uses its own definition; two overlays that define it differently cannot be chosen together`,
      });
  }
  for (const overlay of checkOverrides ? overlays : []) {
    const src = sources.get(overlayFile(overlay.domain, sources))!;
    for (const id of Object.keys(overlay.priority_overrides)) {
      if (!seen.has(id))
        warnings.push(
          issueAt(
            src,
            ["priority_overrides", id],
            `names no principle: "${id}" is not defined in ${CORE_FILE} or any overlay, so the override is ignored`,
            true,
          ),
        );
    }
  }
  return { issues, warnings };
}

/** Eval cases must name known domains and principles, and each prompt once. */
export function evalIssues(
  cases: EvalCase[],
  core: Principle[],
  overlays: Overlay[],
  sources: Map<string, Located>,
): ConstitutionIssue[] {
  const issues: ConstitutionIssue[] = [];
  const ids = new Set(
    [...core, ...overlays.flatMap((o) => o.additional_principles)].map((p) => p.id),
  );
  const domains = new Set(overlays.map((o) => o.domain));
  const prompts = new Map<string, string>();
  const seenInFile = new Map<string, number>();
  for (const c of cases) {
    const src = sources.get(c.file)!;
    const index = seenInFile.get(c.file) ?? 0;
    seenInFile.set(c.file, index + 1);
    const at = (path: PathItem[], reason: string) =>
      issues.push(issueAt(src, ["cases", index, ...path], reason));
    c.domains.forEach((d, i) => {
      if (!domains.has(d)) at(["domains", i], `"${d}" is not an overlay of this constitution`);
    });
    c.expect.forEach((id, i) => {
      if (!ids.has(id)) at(["expect", i], `"${id}" names no principle`);
    });
    c.forbid.forEach((entry, i) => {
      const prefix = entry.endsWith("*") ? entry.slice(0, -1) : null;
      if (prefix === null ? !ids.has(entry) : ![...ids].some((id) => id.startsWith(prefix)))
        at(["forbid", i], `"${entry}" names no principle`);
    });
    const key = c.prompt.toLowerCase();
    const twin = prompts.get(key);
    if (twin) at(["prompt"], `is already a case at ${twin}`);
    else prompts.set(key, `${c.file}:${c.line}`);
  }
  return issues;
}

function overlayFile(domain: string, sources: Map<string, Located>): string {
  const yml = `${OVERLAYS_DIR}/${domain}.yml`;
  return sources.has(yml) ? yml : `${OVERLAYS_DIR}/${domain}.yaml`;
}
