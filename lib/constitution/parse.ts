import { isMap, isScalar, LineCounter, parseDocument, type Document } from "yaml";
import type { z } from "zod";
import {
  CORE_FILE,
  coreFileSchema,
  domainNameSchema,
  OVERLAYS_DIR,
  overlayInputSchema,
  type Constitution,
  type ConstitutionIssue,
  differences,
  laxInteger,
  type Overlay,
  type Principle,
} from "./schema";
import { EVAL_DIR, evalFileSchema, strictest, type EvalCase, type EvalSet, type Thresholds } from "./eval-schema";
import { sizeIssues, utf8Length } from "./limits";
import { characterProblems } from "./text-limits";

/** A constitution file: its path relative to the constitution directory, and its text. */
export type ConstitutionFile = { path: string; text: string };

/**
 * The files with `path` set to `text`: an existing file at that path, or its `.yml`/`.yaml`
 * twin (one overlay either way), is replaced. What a save and an impact preview both apply.
 */
export function withFile(files: readonly ConstitutionFile[], path: string, text: string): ConstitutionFile[] {
  const twin = path.endsWith(".yaml") ? path.replace(/\.yaml$/, ".yml") : path.replace(/\.yml$/, ".yaml");
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

type Located = { file: string; doc: Document; lines: LineCounter };
type PathItem = string | number;

const OVERLAY_PATH = new RegExp(`^${OVERLAYS_DIR}/([^/]+)\\.ya?ml$`);
const EVAL_PATH = new RegExp(`^${EVAL_DIR}/[^/]+\\.ya?ml$`);

function position(src: Located, offset: number): { line: number; column: number } {
  const { line, col } = src.lines.linePos(offset);
  return { line, column: col };
}

/** Formats a path like `principles[2].priority`. */
export function fieldName(path: readonly PathItem[]): string {
  let out = "";
  for (const item of path) out += typeof item === "number" ? `[${item}]` : out ? `.${item}` : item;
  return out || "(file)";
}

/** The offset of the node at `path`, or of its nearest existing ancestor; `key: true` points at a map key. */
function offsetOf(src: Located, path: readonly PathItem[], key = false): number {
  for (let depth = path.length; depth >= 0; depth--) {
    const prefix = path.slice(0, depth);
    if (key && depth === path.length && depth > 0) {
      const parent = src.doc.getIn(prefix.slice(0, -1), true);
      if (isMap(parent)) {
        const pair = parent.items.find((p) => isScalar(p.key) && String(p.key.value) === String(prefix.at(-1)));
        if (pair && isScalar(pair.key) && pair.key.range) return pair.key.range[0];
      }
      continue;
    }
    const node = depth === 0 ? src.doc.contents : src.doc.getIn(prefix, true);
    const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
    if (range) return range[0];
  }
  return 0;
}

function issueAt(src: Located, path: readonly PathItem[], reason: string, key = false): ConstitutionIssue {
  return { file: src.file, ...position(src, offsetOf(src, path, key)), field: fieldName(path), reason };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Reads priorities and override values as moralstack's Pydantic models do (laxInteger):
 * "90" and 90.0 load as 90, each text with a warning, so a file written for moralstack
 * loads unchanged; what Pydantic refuses is left for the schema to refuse. An empty
 * `priority_overrides:` means none, as moralstack reads it. Changes `value` in place.
 */
function coerceNumbers(src: Located, value: Record<string, unknown>, principlesKey: string, warnings: ConstitutionIssue[]): void {
  const coerce = (holder: Record<string, unknown>, key: string, path: PathItem[]) => {
    const raw = holder[key];
    if (typeof raw !== "string") return;
    const n = laxInteger(raw);
    if (n === null) return;
    holder[key] = n;
    warnings.push(issueAt(src, path, `is the text ${JSON.stringify(raw)}: read as the number ${n}`));
  };
  const principles = value[principlesKey];
  if (Array.isArray(principles)) {
    principles.forEach((p, i) => {
      if (!isRecord(p)) return;
      coerce(p, "priority", [principlesKey, i, "priority"]);
      for (const key of KEYWORD_LISTS) dropEmptyKeywords(src, p, key, [principlesKey, i, key], warnings);
    });
  }
  if ("priority_overrides" in value && value.priority_overrides === null) delete value.priority_overrides;
  const overrides = value.priority_overrides;
  if (isRecord(overrides)) for (const id of Object.keys(overrides)) coerce(overrides, id, ["priority_overrides", id]);
  if (principlesKey === "additional_principles") {
    dropEmptyKeywords(src, value, "keywords", ["keywords"], warnings);
    for (const key of ["sensitive", "excluded"]) coerceFlag(src, value, key, warnings);
    coerceFraction(src, value, "sensitive_risk_floor", warnings);
  }
}

const KEYWORD_LISTS = ["keywords", "keywords_block", "keywords_style"] as const;

/** An empty keyword matches nothing: moralstack drops it, and so does Charter, with a warning. */
function dropEmptyKeywords(src: Located, holder: Record<string, unknown>, key: string, path: PathItem[], warnings: ConstitutionIssue[]): void {
  const list = holder[key];
  if (!Array.isArray(list)) return;
  const empty = list.flatMap((k, i) => ((typeof k === "string" && k.trim() === "") || k === null ? [i] : []));
  if (empty.length === 0) return;
  for (const i of empty) warnings.push(issueAt(src, [...path, i], "is an empty keyword: it matches nothing and is left out"));
  holder[key] = list.filter((_, i) => !empty.includes(i));
}

/** Pydantic's lax booleans, as moralstack reads `sensitive` and `excluded`. */
const LAX_TRUE = new Set(["1", "on", "t", "true", "y", "yes"]);
const LAX_FALSE = new Set(["0", "off", "f", "false", "n", "no"]);

/** `sensitive: "yes"` or `excluded: 1` is read as Pydantic reads it, with a warning; anything else is left for the schema to refuse. */
function coerceFlag(src: Located, holder: Record<string, unknown>, key: string, warnings: ConstitutionIssue[]): void {
  const raw = holder[key];
  const text = typeof raw === "string" ? raw.trim().toLowerCase() : raw === 0 || raw === 1 ? String(raw) : null;
  if (text === null) return;
  const flag = LAX_TRUE.has(text) ? true : LAX_FALSE.has(text) ? false : null;
  if (flag === null) return;
  holder[key] = flag;
  warnings.push(issueAt(src, [key], `is ${JSON.stringify(raw)}, not true or false: read as ${flag}`));
}

/** `sensitive_risk_floor: "0.5"` is read as the number, with a warning, as Pydantic reads a float field. */
function coerceFraction(src: Located, holder: Record<string, unknown>, key: string, warnings: ConstitutionIssue[]): void {
  const raw = holder[key];
  if (typeof raw !== "string" || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(raw.trim())) return;
  const n = Number(raw.trim());
  holder[key] = n;
  warnings.push(issueAt(src, [key], `is the text ${JSON.stringify(raw)}: read as the number ${n}`));
}

function zodIssues(src: Located, error: z.ZodError): ConstitutionIssue[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.filter((p): p is PathItem => typeof p === "string" || typeof p === "number");
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((k) => issueAt(src, [...path, k], "is not a known field", true));
    }
    const missing = path.length > 0 && !src.doc.hasIn(path);
    const reason = missing ? "is required" : issue.message;
    return [issueAt(src, path, reason)];
  });
}

/**
 * Reads one YAML file; YAML syntax errors and, when `checkText`, forbidden characters
 * (text-limits.ts) become issues with their positions.
 */
function readYaml(file: ConstitutionFile, checkText: boolean): { src: Located; value: unknown; issues: ConstitutionIssue[] } {
  const lines = new LineCounter();
  const doc = parseDocument(file.text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const src = { file: file.path, doc, lines };
  const characters = checkText
    ? characterProblems(file.text, doc).map(({ offset, path, reason }) => ({ file: file.path, ...position(src, offset), field: path ? fieldName(path) : "(file)", reason }))
    : [];
  const syntax = doc.errors.map((error) => {
    const at = lines.linePos(error.pos[0]);
    return { file: file.path, line: at.line, column: at.col, field: "(yaml)", reason: error.message.split("\n")[0] ?? "invalid YAML" };
  });
  if (characters.length || syntax.length) return { src, value: undefined, issues: [...characters, ...syntax] };
  const value: unknown = doc.toJS();
  if (value === null || value === undefined) return { src, value, issues: [{ file: file.path, line: 1, column: 1, field: "(file)", reason: "the file is empty" }] };
  if (typeof value !== "object" || Array.isArray(value)) {
    return { src, value, issues: [issueAt(src, [], "the file must be a mapping (key: value pairs), not a list or a single value")] };
  }
  return { src, value, issues: [] };
}

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
        parsed.data.cases.forEach((c, i) => evalCases.push({ ...c, file: file.path, line: position(read.src, offsetOf(read.src, ["cases", i])).line }));
      }
      continue;
    }
    const match = OVERLAY_PATH.exec(file.path);
    if (!match?.[1]) {
      issues.push({ file: file.path, line: 1, column: 1, field: "(file)", reason: `is not part of a constitution: use ${CORE_FILE}, ${OVERLAYS_DIR}/<domain>.yaml or ${EVAL_DIR}/<name>.yaml` });
      continue;
    }
    const fileDomain = match[1];
    if (!domainNameSchema.safeParse(fileDomain).success) {
      issues.push({ file: file.path, line: 1, column: 1, field: "(file)", reason: `"${fileDomain}" is not a valid domain name: use lower-case letters, digits and underscores` });
      continue;
    }
    const twin = seenDomains.get(fileDomain);
    if (twin) {
      issues.push({ file: file.path, line: 1, column: 1, field: "(file)", reason: `defines the ${fileDomain} overlay again: ${twin} already does; keep one file per domain` });
      continue;
    }
    seenDomains.set(fileDomain, file.path);
    coerceNumbers(read.src, read.value as Record<string, unknown>, "additional_principles", warnings);
    const parsed = overlayInputSchema.safeParse(read.value);
    if (!parsed.success) {
      issues.push(...zodIssues(read.src, parsed.error));
      continue;
    }
    if (parsed.data.domain !== undefined && parsed.data.domain !== fileDomain) {
      issues.push(issueAt(read.src, ["domain"], `is "${parsed.data.domain}" but the file is ${file.path}: the domain must match the file name`));
      continue;
    }
    parsed.data.additional_principles.forEach((p, i) => {
      if (p.domain !== null && p.domain !== fileDomain) issues.push(issueAt(read.src, ["additional_principles", i, "domain"], `is "${p.domain}" but the principle belongs to the ${fileDomain} overlay`));
    });
    const definedAt = Object.fromEntries(
      parsed.data.additional_principles.map((p, i) => {
        const at = issueAt(read.src, ["additional_principles", i, "id"], "");
        return [p.id, `${at.file}:${at.line}:${at.column}`];
      }),
    );
    overlays.push({ ...parsed.data, domain: fileDomain, additional_principles: parsed.data.additional_principles.map((p) => ({ ...p, domain: fileDomain })), defined_at: definedAt });
  }

  if (!files.some((f) => f.path === CORE_FILE)) issues.push({ file: CORE_FILE, line: 1, column: 1, field: "(file)", reason: "is missing: a constitution needs core principles" });
  if (core) {
    // moralstack's core.yaml labels a principle `domain: core`; any domain on a core principle is only a label
    // (and specificity, conflict.ts): the principle stays in force under every domain.
    core.principles.forEach((p, i) => {
      if (p.domain !== null && p.domain !== CORE_DOMAIN_LABEL)
        warnings.push(issueAt(sources.get(CORE_FILE)!, ["principles", i, "domain"], `is "${p.domain}" on a core principle: it stays in force under every domain; the domain only labels it and counts as specificity`));
    });
  }
  // Without a valid core file, overrides of core principles cannot be checked: say nothing rather than something false.
  const cross = crossFileIssues(core?.principles ?? [], overlays, sources, core !== undefined);
  issues.push(...cross.issues);
  warnings.push(...cross.warnings);
  // Eval cases are checked against a whole constitution only: with a broken overlay, every case naming it would be noise.
  if (core && issues.length === 0) issues.push(...evalIssues(evalCases, core.principles, overlays, sources));

  if (issues.length || !core) return { ok: false, issues: sortIssues(issues), warnings: sortIssues(warnings) };
  return {
    ok: true,
    warnings: sortIssues(warnings),
    evals: { cases: evalCases, thresholds: strictest(evalThresholds) },
    constitution: {
      ...(core.description ? { description: core.description } : {}),
      core: core.principles,
      overlays: Object.fromEntries(overlays.sort((a, b) => a.domain.localeCompare(b.domain)).map((o) => [o.domain, o])),
    },
  };
}

/**
 * Duplicate ids and overrides of no principle. An id may be defined in two overlays
 * (moralstack activates one overlay at a time, so its files do that): identical
 * definitions are one principle; different ones load with a warning, each overlay
 * keeping its own, and overlay.ts decides when both are active. An id defined twice in
 * one file, or in core.yaml and an overlay, is refused: both would be in force at once.
 * An override of no principle changes nothing: a warning, as moralstack ignores it.
 */
function crossFileIssues(core: Principle[], overlays: Overlay[], sources: Map<string, Located>, checkOverrides: boolean): { issues: ConstitutionIssue[]; warnings: ConstitutionIssue[] } {
  const issues: ConstitutionIssue[] = [];
  const warnings: ConstitutionIssue[] = [];
  type Place = { file: string; inCore: boolean; at: string; principle: Principle };
  const seen = new Map<string, Place[]>();
  const places: { file: string; path: PathItem[]; principle: Principle }[] = [
    ...core.map((principle, i) => ({ file: CORE_FILE, path: ["principles", i, "id"], principle })),
    ...overlays.flatMap((o) => o.additional_principles.map((principle, i) => ({ file: overlayFile(o.domain, sources), path: ["additional_principles", i, "id"], principle }))),
  ];
  for (const place of places) {
    const src = sources.get(place.file)!;
    const located = issueAt(src, place.path, "");
    const here: Place = { file: place.file, inCore: place.file === CORE_FILE, at: `${located.file}:${located.line}:${located.column}`, principle: place.principle };
    const earlier = seen.get(place.principle.id) ?? [];
    seen.set(place.principle.id, [...earlier, here]);
    const clash = earlier.find((e) => e.file === here.file || e.inCore || here.inCore);
    if (clash) {
      issues.push({ ...located, reason: `"${place.principle.id}" is already defined at ${clash.at}` });
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
      if (!seen.has(id)) warnings.push(issueAt(src, ["priority_overrides", id], `names no principle: "${id}" is not defined in ${CORE_FILE} or any overlay, so the override is ignored`, true));
    }
  }
  return { issues, warnings };
}

/** Eval cases must name known domains and principles, and each prompt once. */
function evalIssues(cases: EvalCase[], core: Principle[], overlays: Overlay[], sources: Map<string, Located>): ConstitutionIssue[] {
  const issues: ConstitutionIssue[] = [];
  const ids = new Set([...core, ...overlays.flatMap((o) => o.additional_principles)].map((p) => p.id));
  const domains = new Set(overlays.map((o) => o.domain));
  const prompts = new Map<string, string>();
  const seenInFile = new Map<string, number>();
  for (const c of cases) {
    const src = sources.get(c.file)!;
    const index = seenInFile.get(c.file) ?? 0;
    seenInFile.set(c.file, index + 1);
    const at = (path: PathItem[], reason: string) => issues.push(issueAt(src, ["cases", index, ...path], reason));
    c.domains.forEach((d, i) => {
      if (!domains.has(d)) at(["domains", i], `"${d}" is not an overlay of this constitution`);
    });
    c.expect.forEach((id, i) => {
      if (!ids.has(id)) at(["expect", i], `"${id}" names no principle`);
    });
    c.forbid.forEach((entry, i) => {
      const prefix = entry.endsWith("*") ? entry.slice(0, -1) : null;
      if (prefix === null ? !ids.has(entry) : ![...ids].some((id) => id.startsWith(prefix))) at(["forbid", i], `"${entry}" names no principle`);
    });
    const key = c.prompt.toLowerCase();
    const twin = prompts.get(key);
    if (twin) at(["prompt"], `is already a case at ${twin}`);
    else prompts.set(key, `${c.file}:${c.line}`);
  }
  return issues;
}

/** The label moralstack's core.yaml gives a core principle in `domain` (SOFT.FAIRNESS.1): no warning for it. */
export const CORE_DOMAIN_LABEL = "core";

function overlayFile(domain: string, sources: Map<string, Located>): string {
  const yml = `${OVERLAYS_DIR}/${domain}.yml`;
  return sources.has(yml) ? yml : `${OVERLAYS_DIR}/${domain}.yaml`;
}

function sortIssues(issues: ConstitutionIssue[]): ConstitutionIssue[] {
  return issues.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
}
