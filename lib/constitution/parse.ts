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

/** What reading the files one by one gathers, before the checks across files. */
type Gathered = {
  issues: ConstitutionIssue[];
  warnings: ConstitutionIssue[];
  sources: Map<string, Located>;
  core?: { description?: string; principles: Principle[] };
  overlays: Overlay[];
  /** Each overlay's domain, with the file that defined it. */
  domains: Map<string, string>;
  evalCases: EvalCase[];
  evalThresholds: Thresholds[];
};

/** An issue with a whole file, at its first line. */
const fileIssue = (file: string, reason: string): ConstitutionIssue => ({
  file,
  line: 1,
  column: 1,
  field: "(file)",
  reason,
});

function readCoreFile(src: Located, value: Record<string, unknown>, g: Gathered): void {
  coerceNumbers(src, value, "principles", g.warnings);
  const parsed = coreFileSchema.safeParse(value);
  if (!parsed.success) g.issues.push(...zodIssues(src, parsed.error));
  else g.core = parsed.data;
}

function readEvalFile(path: string, src: Located, value: unknown, g: Gathered): void {
  const parsed = evalFileSchema.safeParse(value);
  if (!parsed.success) {
    g.issues.push(...zodIssues(src, parsed.error));
    return;
  }
  if (parsed.data.thresholds) g.evalThresholds.push(parsed.data.thresholds);
  parsed.data.cases.forEach((c, i) =>
    g.evalCases.push({
      ...c,
      file: path,
      line: position(src, offsetOf(src, ["cases", i])).line,
    }),
  );
}

/** The domain an overlay file's path names, or the issue with its path. */
function overlayDomain(path: string, g: Gathered): string | null {
  const domain = OVERLAY_PATH.exec(path)?.[1];
  const problem = !domain
    ? `is not part of a constitution: use ${CORE_FILE}, ${OVERLAYS_DIR}/<domain>.yaml or ${EVAL_DIR}/<name>.yaml`
    : !domainNameSchema.safeParse(domain).success
      ? `"${domain}" is not a valid domain name: use lower-case letters, digits and underscores`
      : g.domains.has(domain)
        ? `defines the ${domain} overlay again: ${g.domains.get(domain)} already does; keep one file per domain`
        : null;
  if (problem || !domain) {
    g.issues.push(fileIssue(path, problem ?? "is not part of a constitution"));
    return null;
  }
  g.domains.set(domain, path);
  return domain;
}

function readOverlayFile(
  path: string,
  src: Located,
  value: Record<string, unknown>,
  g: Gathered,
): void {
  const domain = overlayDomain(path, g);
  if (domain === null) return;
  coerceNumbers(src, value, "additional_principles", g.warnings);
  const parsed = overlayInputSchema.safeParse(value);
  if (!parsed.success) {
    g.issues.push(...zodIssues(src, parsed.error));
    return;
  }
  if (parsed.data.domain !== undefined && parsed.data.domain !== domain) {
    g.issues.push(
      issueAt(
        src,
        ["domain"],
        `is "${parsed.data.domain}" but the file is ${path}: the domain must match the file name`,
      ),
    );
    return;
  }
  parsed.data.additional_principles.forEach((p, i) => {
    if (p.domain !== null && p.domain !== domain)
      g.issues.push(
        issueAt(
          src,
          ["additional_principles", i, "domain"],
          `is "${p.domain}" but the principle belongs to the ${domain} overlay`,
        ),
      );
  });
  const definedAt = Object.fromEntries(
    parsed.data.additional_principles.map((p, i) => {
      const at = issueAt(src, ["additional_principles", i, "id"], "");
      return [p.id, `${at.file}:${at.line}:${at.column}`];
    }),
  );
  g.overlays.push({
    ...parsed.data,
    domain,
    additional_principles: parsed.data.additional_principles.map((p) => ({ ...p, domain })),
    defined_at: definedAt,
  });
}

/**
 * moralstack's core.yaml labels a principle `domain: core`; any other domain on a core
 * principle is only a label (and specificity, conflict.ts): the principle stays in force
 * under every domain, which a warning says.
 */
function coreLabelWarnings(principles: Principle[], src: Located): ConstitutionIssue[] {
  return principles.flatMap((p, i) =>
    p.domain !== null && p.domain !== CORE_DOMAIN_LABEL
      ? [
          issueAt(
            src,
            ["principles", i, "domain"],
            `is "${p.domain}" on a core principle: it stays in force under every domain; the domain only labels it and counts as specificity`,
          ),
        ]
      : [],
  );
}

/** Reads every file on its own (in path order), each by what its path says it is. */
function gather(files: readonly ConstitutionFile[], checkText: boolean): Gathered {
  const g: Gathered = {
    issues: [],
    warnings: [],
    sources: new Map(),
    overlays: [],
    domains: new Map(),
    evalCases: [],
    evalThresholds: [],
  };
  for (const file of [...files].sort((a, b) => a.path.localeCompare(b.path))) {
    const read = readYaml(file, checkText);
    g.sources.set(file.path, read.src);
    if (read.issues.length) g.issues.push(...read.issues);
    else if (file.path === CORE_FILE)
      readCoreFile(read.src, read.value as Record<string, unknown>, g);
    else if (EVAL_PATH.test(file.path)) readEvalFile(file.path, read.src, read.value, g);
    else readOverlayFile(file.path, read.src, read.value as Record<string, unknown>, g);
  }
  return g;
}

function parseFiles(files: readonly ConstitutionFile[], checkText: boolean): ParseResult {
  const g = gather(files, checkText);
  const { issues, warnings, core, overlays } = g;
  if (!files.some((f) => f.path === CORE_FILE))
    issues.push(fileIssue(CORE_FILE, "is missing: a constitution needs core principles"));
  if (core) warnings.push(...coreLabelWarnings(core.principles, g.sources.get(CORE_FILE)!));
  // Without a valid core file, overrides of core principles cannot be checked: say nothing rather than something false.
  const cross = crossFileIssues(core?.principles ?? [], overlays, g.sources, core !== undefined);
  issues.push(...cross.issues);
  warnings.push(...cross.warnings);
  // Eval cases are checked against a whole constitution only: with a broken overlay, every case naming it would be noise.
  if (core && issues.length === 0)
    issues.push(...evalIssues(g.evalCases, core.principles, overlays, g.sources));

  if (issues.length || !core)
    return { ok: false, issues: sortIssues(issues), warnings: sortIssues(warnings) };
  return {
    ok: true,
    warnings: sortIssues(warnings),
    evals: { cases: g.evalCases, thresholds: strictest(g.evalThresholds) },
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
