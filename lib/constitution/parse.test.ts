import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { loadConstitution, SHIPPED_CONSTITUTION_DIR } from "@/lib/files/constitution";
import { parseConstitution, withFile, type ConstitutionFile } from "./parse";
import { CORE_FILE, formatIssue, OVERLAYS_DIR, type ConstitutionIssue } from "./schema";
import { serializeConstitution } from "./serialize";

const FIXTURES = path.join(import.meta.dirname, "fixtures");
const MALFORMED = path.join(FIXTURES, "malformed");
const BASE_PATHS = [CORE_FILE, `${OVERLAYS_DIR}/legal.yaml`, `${OVERLAYS_DIR}/medical.yaml`];

const read = (file: string) => readFileSync(file, "utf8");
const base: ConstitutionFile[] = BASE_PATHS.map((p) => ({ path: p, text: read(path.join(FIXTURES, "base", p)) }));
const baseText = (p: string) => base.find((f) => f.path === p)!.text;

/** The base constitution with `files` replacing (or added next to) the base files of the same path. */
function withFiles(files: ConstitutionFile[], remove: readonly string[] = []): ConstitutionFile[] {
  const replaced = new Set([...files.map((f) => f.path), ...remove]);
  return [...base.filter((f) => !replaced.has(f.path)), ...files];
}

function issuesOf(files: ConstitutionFile[]): ConstitutionIssue[] {
  const result = parseConstitution(files);
  if (result.ok) throw new Error("expected the parse to fail, but it succeeded");
  return result.issues;
}

type Expectation = { file: string; line: number; column: number | "*"; field: string; reason: RegExp };
type Fixture = { name: string; file: ConstitutionFile; remove: string[]; expected: Expectation };

const EXPECT_LINE = /^# expect: (?<file>[^:\s]+):(?<line>\d+):(?<column>\d+|\*): (?<field>\S+): (?<reason>.+)$/;

/** `overlays--medical--case.yaml` stands for `overlays/medical.yaml`; `core--case.yaml` for `core.yaml`. */
function fixturePath(name: string): string {
  const segments = name.replace(/\.yaml$/, "").split("--");
  if (segments.length < 2) throw new Error(`${name}: a fixture name needs <path segments>--<case>.yaml`);
  return `${segments.slice(0, -1).join("/")}.yaml`;
}

function loadFixture(name: string): Fixture {
  const text = read(path.join(MALFORMED, name));
  const match = EXPECT_LINE.exec(text.split("\n")[0] ?? "");
  if (!match?.groups) throw new Error(`${name}: line 1 must be "# expect: <file>:<line>:<column>: <field>: <reason regex>"`);
  const { file, line, column, field, reason } = match.groups as Record<string, string>;
  return {
    name,
    file: { path: fixturePath(name), text },
    remove: [...text.matchAll(/^# remove: (\S+)$/gm)].map((m) => m[1]!),
    expected: { file: file!, line: Number(line), column: column === "*" ? "*" : Number(column), field: field!, reason: new RegExp(reason!) },
  };
}

const fixtures = readdirSync(MALFORMED)
  .filter((n) => n.endsWith(".yaml"))
  .sort()
  .map(loadFixture);

describe("the fixtures", () => {
  it("the base constitution parses", () => {
    const result = parseConstitution(base);
    expect(result.ok ? [] : result.issues.map(formatIssue)).toEqual([]);
  });

  it("the malformed corpus has at least 30 cases", () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(30);
  });

  it.each([
    ["core--empty.yaml", "core.yaml"],
    ["overlays--medical--x.yaml", "overlays/medical.yaml"],
    ["overlays--Medical-Stuff--x.yaml", "overlays/Medical-Stuff.yaml"],
    ["notes--x.yaml", "notes.yaml"],
  ])("%s stands for %s", (name, expected) => {
    expect(fixturePath(name)).toBe(expected);
  });
});

describe("the malformed corpus", () => {
  it.each(fixtures.map((f) => [f.name, f] as const))("%s", (_name, { file, remove, expected }) => {
    const issues = issuesOf(withFiles([file], remove));
    expect(issues).toContainEqual({
      file: expected.file,
      line: expected.line,
      column: expected.column === "*" ? expect.any(Number) : expected.column,
      field: expected.field,
      reason: expect.stringMatching(expected.reason),
    });
  });
});

describe("parseConstitution", () => {
  it("reports every problem of a file at once", () => {
    const medical = [
      "domain: medical",
      "audience: adults",
      'sensitive: "yes"',
      "additional_principles:",
      "  - {id: MED.A.1, level: soft, priority: 0, title: A, rule: Do A.}",
      "  - {id: MED.B.1, level: soft, priority: 60, title: B, rule: Do B.}",
    ].join("\n");
    const issues = issuesOf(withFiles([{ path: "overlays/medical.yaml", text: medical }]));
    expect(issues.map(formatIssue)).toEqual([
      "overlays/medical.yaml:2:1: audience: is not a known field",
      expect.stringMatching(/^overlays\/medical\.yaml:3:12: sensitive: .*boolean/),
      "overlays/medical.yaml:5:42: additional_principles[0].priority: must be between 1 and 100",
    ]);
  });

  it("reports the problems of every file, sorted by file, line and column", () => {
    const medical = baseText("overlays/medical.yaml").replace("keywords: [headache, fever, dose]", 'keywords: [headache, fever, dose]\nsensitive: "yes"');
    const legal = baseText("overlays/legal.yaml").replace("level: hard", "level: firm");
    const issues = issuesOf(withFiles([{ path: "overlays/medical.yaml", text: medical }, { path: "overlays/legal.yaml", text: legal }, { path: "notes.yaml", text: "a: 1\n" }]));
    expect(issues.map((i) => `${i.file}:${i.line}: ${i.field}`)).toEqual(["notes.yaml:1: (file)", "overlays/legal.yaml:14: additional_principles[1].level", "overlays/medical.yaml:4: sensitive"]);
  });

  it("an invalid core file does not make the overlays' overrides of its valid principles look undefined", () => {
    const core = baseText(CORE_FILE).replace("priority: 100", "priority: 0");
    expect(issuesOf(withFiles([{ path: CORE_FILE, text: core }])).map(formatIssue)).toEqual(["core.yaml:5:15: principles[0].priority: must be between 1 and 100"]);
  });

  it("refuses two files for one domain (overlays/medical.yaml and overlays/medical.yml)", () => {
    const yml = "domain: medical\nadditional_principles:\n  - {id: MED.OTHER.1, level: soft, priority: 50, title: Other, rule: Do other things.}\n";
    const result = parseConstitution(withFiles([{ path: "overlays/medical.yml", text: yml }]));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.some((i) => /medical\.ya?ml/.test(i.reason))).toBe(true);
  });

  it("gives no partial constitution when it fails", () => {
    const result = parseConstitution(withFiles([], [CORE_FILE]));
    expect(result.ok).toBe(false);
    expect(result).not.toHaveProperty("constitution");
  });

  it("fills each overlay principle's domain from its file name and sorts overlays by domain", () => {
    const result = parseConstitution(base);
    if (!result.ok) throw new Error(result.issues.map(formatIssue).join("\n"));
    expect(Object.keys(result.constitution.overlays)).toEqual(["legal", "medical"]);
    expect(result.constitution.overlays.medical!.additional_principles.map((p) => p.domain)).toEqual(["medical", "medical"]);
    expect(result.constitution.core.every((p) => p.domain === null)).toBe(true);
  });

  it.each([
    ["keywords only", "keywords: [bomb, gun]", ["bomb", "gun"]],
    ["keywords_block only", "keywords_block: [bomb, gun]", ["bomb", "gun"]],
    ["keywords_style only, with a repeat", "keywords_style: [rant, Rant, tone]", ["rant", "tone"]],
    ["all three, repeats across lists in another case", "keywords: [Bomb, gun], keywords_block: [bomb, Knife, GUN], keywords_style: [knife, rifle]", ["Bomb", "gun", "Knife", "rifle"]],
    ["block before style, keywords first", "keywords_style: [c, a], keywords_block: [b, A], keywords: [d]", ["d", "b", "A", "c"]],
    ["none", "", []],
  ])("merges keywords_block and keywords_style into keywords: %s", (_label, fields, keywords) => {
    const text = `principles:\n  - {id: CORE.X.1, level: hard, priority: 90, title: X, rule: Do X.${fields ? `, ${fields}` : ""}}\n`;
    const result = parseConstitution([{ path: CORE_FILE, text }]);
    if (!result.ok) throw new Error(result.issues.map(formatIssue).join("\n"));
    const [principle] = result.constitution.core;
    expect(principle!.keywords).toEqual(keywords);
    expect(principle).not.toHaveProperty("keywords_block");
    expect(principle).not.toHaveProperty("keywords_style");
  });
});

describe("formatIssue", () => {
  it.each([
    [{ file: "core.yaml", line: 5, column: 15, field: "principles[0].priority", reason: "must be between 1 and 100" }, "core.yaml:5:15: principles[0].priority: must be between 1 and 100"],
    [{ file: "overlays/medical.yaml", line: 1, column: 1, field: "(file)", reason: "the file is empty" }, "overlays/medical.yaml:1:1: (file): the file is empty"],
    [{ file: "overlays/legal.yaml", line: 12, column: 3, field: "priority_overrides.SOFT.X.1", reason: 'names no principle: "SOFT.X.1"' }, 'overlays/legal.yaml:12:3: priority_overrides.SOFT.X.1: names no principle: "SOFT.X.1"'],
  ])("formats %j", (issue, text) => {
    expect(formatIssue(issue)).toBe(text);
  });
});

describe("serializeConstitution round-trip", () => {
  it("parses the shipped constitution's serialization back to the same constitution", async () => {
    const loaded = await loadConstitution(SHIPPED_CONSTITUTION_DIR);
    if (!loaded.ok) throw new Error(loaded.issues.map(formatIssue).join("\n"));
    const back = parseConstitution(serializeConstitution(loaded.constitution));
    expect(back.ok ? [] : back.issues.map(formatIssue)).toEqual([]);
    if (back.ok) expect(back.constitution).toEqual(loaded.constitution);
  });

  it("keeps values that YAML would otherwise read as other types, and optional overlay fields", () => {
    const core = [
      "description: Always on.",
      "principles:",
      '  - {id: CORE.X.1, level: hard, priority: 90, title: "yes", rule: "Do X: always.", keywords: ["true", "123", "null", "a: b", "- x", "#tag", "~"]}',
    ].join("\n");
    const overlay = [
      "description: 'Quoted things. NOT for: other things (legal).'",
      "sensitive: true",
      "excluded: true",
      "sensitive_risk_floor: 0",
      "refusal_redirection: Say no kindly.",
      "simulator_domain_guidance: Weigh harm.",
      "priority_overrides: {CORE.X.1: 95}",
      "additional_principles:",
      "  - {id: Q.A.1, level: soft, priority: 30, title: Q, rule: Do Q., examples_allow: [ok], examples_deny: [no], remediation: Fix it.}",
    ].join("\n");
    const first = parseConstitution([{ path: CORE_FILE, text: core }, { path: "overlays/quoted.yaml", text: overlay }]);
    if (!first.ok) throw new Error(first.issues.map(formatIssue).join("\n"));
    const back = parseConstitution(serializeConstitution(first.constitution));
    expect(back.ok && isDeepStrictEqual(back.constitution, first.constitution)).toBe(true);
  });
});

describe("withFile", () => {
  const files = [
    { path: "core.yaml", text: "a" },
    { path: "overlays/medical.yml", text: "b" },
    { path: "overlays/legal.yaml", text: "c" },
  ];
  it.each([
    ["replaces a file at the path", "overlays/legal.yaml", ["core.yaml:a", "overlays/medical.yml:b", "overlays/legal.yaml:new"]],
    ["replaces the .yml twin of a .yaml path", "overlays/medical.yaml", ["core.yaml:a", "overlays/legal.yaml:c", "overlays/medical.yaml:new"]],
    ["replaces the .yaml twin of a .yml path", "overlays/legal.yml", ["core.yaml:a", "overlays/medical.yml:b", "overlays/legal.yml:new"]],
    ["adds a new file", "eval/more.yaml", ["core.yaml:a", "overlays/medical.yml:b", "overlays/legal.yaml:c", "eval/more.yaml:new"]],
  ])("%s", (_label, path, expected) => {
    expect(withFile(files, path, "new").map((f) => `${f.path}:${f.text}`)).toEqual(expected);
  });
});
