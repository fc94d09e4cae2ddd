import {
  CORE_FILE,
  coreFileSchema,
  domainNameSchema,
  OVERLAYS_DIR,
  overlayInputSchema,
  type Constitution,
  type ConstitutionIssue,
  type Overlay,
  type Principle,
} from "./schema";
import {
  EVAL_DIR,
  evalFileSchema,
  strictest,
  type EvalCase,
  type EvalSet,
  type Thresholds,
} from "./eval-schema";
import { crossFileIssues, evalIssues } from "./cross-file";
import { coerceNumbers } from "./lenient";
import { sizeIssues, utf8Length } from "./limits";
import { issueAt, offsetOf, position, readYaml, zodIssues, type Located } from "./yaml-source";

export { fieldName } from "./yaml-source";

/** A constitution file: its path relative to the constitution directory, and its text. */
export type ConstitutionFile = { path: string; text: string };

/**
 * The files with `path` set to `text`: an existing file at that path, or its `.yml`/`.yaml`
 * twin (one overlay either way), is replaced. What a save and an impact preview both apply.
 */
export function withFile(
  files: readonly ConstitutionFile[],
  path: string,
  text: string,
): ConstitutionFile[] {
  const twin = path.endsWith(".yaml")
    ? path.replace(/\.yaml$/, ".yml")
    : path.replace(/\.yml$/, ".yaml");
  return [...files.filter((f) => f.path !== path && f.path !== twin), { path, text }];
}

/**
 * A whole constitution, or every problem that stops it from loading. Either way
 * `warnings` lists what loaded but is dubious (a priority written as text, an override
 * of no principle, one id defined differently in two overlays), in the issues' form.
 */
export type ParseResult =
  | { ok: true; constitution: Constitution; evals: EvalSet; warnings: ConstitutionIssue[] }
  | { ok: false; issues: ConstitutionIssue[]; warnings?: ConstitutionIssue[] };

const OVERLAY_PATH = new RegExp(`^${OVERLAYS_DIR}/([^/]+)\\.ya?ml$`);
const EVAL_PATH = new RegExp(`^${EVAL_DIR}/[^/]+\\.ya?ml$`);

/**
 * Parses a constitution from its files, purely. Yields the whole constitution or
 * every problem found, each located as `file:line:column: field: reason`; never a
 * partial constitution (docs/spec/constitution-store.md: fail fast, no partial constitution). Input limits
 * come first: files over the size limits (limits.ts) are refused before anything is
 * parsed, and forbidden characters (text-limits.ts) are issues like any other.
 */
export function parseConstitution(files: readonly ConstitutionFile[]): ParseResult {
  const tooLarge = sizeIssues(files.map((f) => ({ path: f.path, bytes: utf8Length(f.text) })));
  if (tooLarge.length) return { ok: false, issues: sortIssues(tooLarge) };
  return parseFiles(files, true);
}

/**
 * Parses a stored version without the input limits (sizes, forbidden characters): it was
 * checked when it was saved, so a version saved before a limit existed keeps loading,
 * and the version in force is never refused for a rule newer than itself.
 */
export function parseStoredConstitution(files: readonly ConstitutionFile[]): ParseResult {
  return parseFiles(files, false);
}

function parseFiles(files: readonly ConstitutionFile[], checkText: boolean): ParseResult {
  const issues: ConstitutionIssue[] = [];
  const warnings: ConstitutionIssue[] = [];
  const sources = new Map<string, Located>();
  let core: { description?: string; principles: Principle[] } | undefined;
  const overlays: Overlay[] = [];
  const seenDomains = new Map<string, string>();
  const evalCases: EvalCase[] = [];
  const evalThresholds: Thresholds[] = [];

  for (const file of [...files].sort((a, b) => a.path.localeCompare(b.path))) {
    const read = readYaml(file, checkText);
    sources.set(file.path, read.src);
    if (read.issues.length) {
      issues.push(...read.issues);
      continue;
    }
    if (file.path === CORE_FILE) {
      coerceNumbers(read.src, read.value as Record<string, unknown>, "principles", warnings);
      const parsed = coreFileSchema.safeParse(read.value);
      if (!parsed.success) issues.push(...zodIssues(read.src, parsed.error));
      else core = parsed.data;
      continue;
    }
    if (EVAL_PATH.test(file.path)) {
      const parsed = evalFileSchema.safeParse(read.value);
      if (!parsed.success) issues.push(...zodIssues(read.src, parsed.error));
      else {
        if (parsed.data.thresholds) evalThresholds.push(parsed.data.thresholds);
        parsed.data.cases.forEach((c, i) =>
          evalCases.push({
            ...c,
            file: file.path,
            line: position(read.src, offsetOf(read.src, ["cases", i])).line,
          }),
        );
      }
      continue;
    }
    const match = OVERLAY_PATH.exec(file.path);
    if (!match?.[1]) {
      issues.push({
        file: file.path,
        line: 1,
        column: 1,
        field: "(file)",
        reason: `is not part of a constitution: use ${CORE_FILE}, ${OVERLAYS_DIR}/<domain>.yaml or ${EVAL_DIR}/<name>.yaml`,
      });
      continue;
    }
    const fileDomain = match[1];
    if (!domainNameSchema.safeParse(fileDomain).success) {
      issues.push({
        file: file.path,
        line: 1,
        column: 1,
        field: "(file)",
        reason: `"${fileDomain}" is not a valid domain name: use lower-case letters, digits and underscores`,
      });
      continue;
    }
    const twin = seenDomains.get(fileDomain);
    if (twin) {
      issues.push({
        file: file.path,
        line: 1,
        column: 1,
        field: "(file)",
        reason: `defines the ${fileDomain} overlay again: ${twin} already does; keep one file per domain`,
      });
      continue;
    }
    seenDomains.set(fileDomain, file.path);
    coerceNumbers(
      read.src,
      read.value as Record<string, unknown>,
      "additional_principles",
      warnings,
    );
    const parsed = overlayInputSchema.safeParse(read.value);
    if (!parsed.success) {
      issues.push(...zodIssues(read.src, parsed.error));
      continue;
    }
    if (parsed.data.domain !== undefined && parsed.data.domain !== fileDomain) {
      issues.push(
        issueAt(
          read.src,
          ["domain"],
          `is "${parsed.data.domain}" but the file is ${file.path}: the domain must match the file name`,
        ),
      );
      continue;
    }
    parsed.data.additional_principles.forEach((p, i) => {
      if (p.domain !== null && p.domain !== fileDomain)
        issues.push(
          issueAt(
            read.src,
            ["additional_principles", i, "domain"],
            `is "${p.domain}" but the principle belongs to the ${fileDomain} overlay`,
          ),
        );
    });
    const definedAt = Object.fromEntries(
      parsed.data.additional_principles.map((p, i) => {
        const at = issueAt(read.src, ["additional_principles", i, "id"], "");
        return [p.id, `${at.file}:${at.line}:${at.column}`];
      }),
    );
    overlays.push({
      ...parsed.data,
      domain: fileDomain,
      additional_principles: parsed.data.additional_principles.map((p) => ({
        ...p,
        domain: fileDomain,
      })),
      defined_at: definedAt,
    });
  }

  if (!files.some((f) => f.path === CORE_FILE))
    issues.push({
      file: CORE_FILE,
      line: 1,
      column: 1,
      field: "(file)",
      reason: "is missing: a constitution needs core principles",
    });
  if (core) {
    // moralstack's core.yaml labels a principle `domain: core`; any domain on a core principle is only a label
    // (and specificity, conflict.ts): the principle stays in force under every domain.
    core.principles.forEach((p, i) => {
      if (p.domain !== null && p.domain !== CORE_DOMAIN_LABEL)
        warnings.push(
          issueAt(
            sources.get(CORE_FILE)!,
            ["principles", i, "domain"],
            `is "${p.domain}" on a core principle: it stays in force under every domain; the domain only labels it and counts as specificity`,
          ),
        );
    });
  }
  // Without a valid core file, overrides of core principles cannot be checked: say nothing rather than something false.
  const cross = crossFileIssues(core?.principles ?? [], overlays, sources, core !== undefined);
  issues.push(...cross.issues);
  warnings.push(...cross.warnings);
  // Eval cases are checked against a whole constitution only: with a broken overlay, every case naming it would be noise.
  if (core && issues.length === 0)
    issues.push(...evalIssues(evalCases, core.principles, overlays, sources));

  if (issues.length || !core)
    return { ok: false, issues: sortIssues(issues), warnings: sortIssues(warnings) };
  return {
    ok: true,
    warnings: sortIssues(warnings),
    evals: { cases: evalCases, thresholds: strictest(evalThresholds) },
    constitution: {
      ...(core.description ? { description: core.description } : {}),
      core: core.principles,
      overlays: Object.fromEntries(
        overlays.sort((a, b) => a.domain.localeCompare(b.domain)).map((o) => [o.domain, o]),
      ),
    },
  };
}

/** The label moralstack's core.yaml gives a core principle in `domain` (SOFT.FAIRNESS.1): no warning for it. */
export const CORE_DOMAIN_LABEL = "core";

function sortIssues(issues: ConstitutionIssue[]): ConstitutionIssue[] {
  return issues.sort(
    (a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column,
  );
}
