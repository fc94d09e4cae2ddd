import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { loadConstitution, SHIPPED_CONSTITUTION_DIR } from "@/lib/files/constitution";
import {
  formatBytes,
  MAX_CONSTITUTION_BYTES,
  MAX_CONSTITUTION_FILES,
  MAX_FILE_BYTES,
} from "./limits";
import {
  parseConstitution,
  parseStoredConstitution,
  withFile,
  type ConstitutionFile,
} from "./parse";
import {
  CORE_FILE,
  formatIssue,
  OVERLAYS_DIR,
  withoutLocations,
  type ConstitutionIssue,
} from "./schema";
import { serializeConstitution } from "./serialize";
import { MAX_CHARACTER_ISSUES } from "./text-limits";

const FIXTURES = path.join(import.meta.dirname, "fixtures");
const MALFORMED = path.join(FIXTURES, "malformed");
const DUBIOUS = path.join(FIXTURES, "dubious");
const BASE_PATHS = [CORE_FILE, `${OVERLAYS_DIR}/legal.yaml`, `${OVERLAYS_DIR}/medical.yaml`];

const read = (file: string) => readFileSync(file, "utf8");
const base: ConstitutionFile[] = BASE_PATHS.map((p) => ({
  path: p,
  text: read(path.join(FIXTURES, "base", p)),
}));
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

type Expectation = {
  file: string;
  line: number;
  column: number | "*";
  field: string;
  reason: RegExp;
};
type Fixture = { name: string; file: ConstitutionFile; remove: string[]; expected: Expectation };

const EXPECT_LINE =
  /^# (?:expect|warn): (?<file>[^:\s]+):(?<line>\d+):(?<column>\d+|\*): (?<field>\S+): (?<reason>.+)$/;

/** `overlays--medical--case.yaml` stands for `overlays/medical.yaml`; `core--case.yaml` for `core.yaml`. */
function fixturePath(name: string): string {
  const segments = name.replace(/\.yaml$/, "").split("--");
  if (segments.length < 2)
    throw new Error(`${name}: a fixture name needs <path segments>--<case>.yaml`);
  return `${segments.slice(0, -1).join("/")}.yaml`;
}

function loadFixture(name: string, dir = MALFORMED): Fixture {
  const text = read(path.join(dir, name));
  const match = EXPECT_LINE.exec(text.split("\n")[0] ?? "");
  if (!match?.groups)
    throw new Error(
      `${name}: line 1 must be "# expect: <file>:<line>:<column>: <field>: <reason regex>"`,
    );
  const { file, line, column, field, reason } = match.groups as Record<string, string>;
  return {
    name,
    file: { path: fixturePath(name), text },
    remove: [...text.matchAll(/^# remove: (\S+)$/gm)].map((m) => m[1]!),
    expected: {
      file: file!,
      line: Number(line),
      column: column === "*" ? "*" : Number(column),
      field: field!,
      reason: new RegExp(reason!),
    },
  };
}

const fixtures = readdirSync(MALFORMED)
  .filter((n) => n.endsWith(".yaml"))
  .sort()
  .map((n) => loadFixture(n));
const dubious = readdirSync(DUBIOUS)
  .filter((n) => n.endsWith(".yaml"))
  .sort()
  .map((n) => loadFixture(n, DUBIOUS));

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

// These four were refused before issue 12; moralstack's own files hold such things, so they load now, each with a warning.
describe("the dubious corpus: loads, with a warning", () => {
  it.each(dubious.map((f) => [f.name, f] as const))("%s", (_name, { file, remove, expected }) => {
    const result = parseConstitution(withFiles([file], remove));
    expect(result.ok ? [] : result.issues.map(formatIssue)).toEqual([]);
    expect(result.warnings).toContainEqual({
      file: expected.file,
      line: expected.line,
      column: expected.column === "*" ? expect.any(Number) : expected.column,
      field: expected.field,
      reason: expect.stringMatching(expected.reason),
    });
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
      'sensitive: "maybe"',
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
    const medical = baseText("overlays/medical.yaml").replace(
      "keywords: [headache, fever, dose]",
      'keywords: [headache, fever, dose]\nsensitive: "maybe"',
    );
    const legal = baseText("overlays/legal.yaml").replace("level: hard", "level: firm");
    const issues = issuesOf(
      withFiles([
        { path: "overlays/medical.yaml", text: medical },
        { path: "overlays/legal.yaml", text: legal },
        { path: "notes.yaml", text: "a: 1\n" },
      ]),
    );
    expect(issues.map((i) => `${i.file}:${i.line}: ${i.field}`)).toEqual([
      "notes.yaml:1: (file)",
      "overlays/legal.yaml:14: additional_principles[1].level",
      "overlays/medical.yaml:4: sensitive",
    ]);
  });

  it("an invalid core file does not make the overlays' overrides of its valid principles look undefined", () => {
    const core = baseText(CORE_FILE).replace("priority: 100", "priority: 0");
    expect(issuesOf(withFiles([{ path: CORE_FILE, text: core }])).map(formatIssue)).toEqual([
      "core.yaml:5:15: principles[0].priority: must be between 1 and 100",
    ]);
  });

  it("refuses two files for one domain (overlays/medical.yaml and overlays/medical.yml)", () => {
    const yml =
      "domain: medical\nadditional_principles:\n  - {id: MED.OTHER.1, level: soft, priority: 50, title: Other, rule: Do other things.}\n";
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
    expect(
      result.constitution.overlays.medical!.additional_principles.map((p) => p.domain),
    ).toEqual(["medical", "medical"]);
    expect(result.constitution.core.every((p) => p.domain === null)).toBe(true);
  });

  it.each([
    ["keywords only", "keywords: [bomb, gun]", ["bomb", "gun"]],
    ["keywords_block only", "keywords_block: [bomb, gun]", ["bomb", "gun"]],
    ["keywords_style only, with a repeat", "keywords_style: [rant, Rant, tone]", ["rant", "tone"]],
    [
      "all three, repeats across lists in another case",
      "keywords: [Bomb, gun], keywords_block: [bomb, Knife, GUN], keywords_style: [knife, rifle]",
      ["Bomb", "gun", "Knife", "rifle"],
    ],
    [
      "block before style, keywords first",
      "keywords_style: [c, a], keywords_block: [b, A], keywords: [d]",
      ["d", "b", "A", "c"],
    ],
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
    [
      {
        file: "core.yaml",
        line: 5,
        column: 15,
        field: "principles[0].priority",
        reason: "must be between 1 and 100",
      },
      "core.yaml:5:15: principles[0].priority: must be between 1 and 100",
    ],
    [
      {
        file: "overlays/medical.yaml",
        line: 1,
        column: 1,
        field: "(file)",
        reason: "the file is empty",
      },
      "overlays/medical.yaml:1:1: (file): the file is empty",
    ],
    [
      {
        file: "overlays/legal.yaml",
        line: 12,
        column: 3,
        field: "priority_overrides.SOFT.X.1",
        reason: 'names no principle: "SOFT.X.1"',
      },
      'overlays/legal.yaml:12:3: priority_overrides.SOFT.X.1: names no principle: "SOFT.X.1"',
    ],
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
    if (back.ok)
      expect(withoutLocations(back.constitution)).toEqual(withoutLocations(loaded.constitution));
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
    const first = parseConstitution([
      { path: CORE_FILE, text: core },
      { path: "overlays/quoted.yaml", text: overlay },
    ]);
    if (!first.ok) throw new Error(first.issues.map(formatIssue).join("\n"));
    const back = parseConstitution(serializeConstitution(first.constitution));
    expect(
      back.ok &&
        isDeepStrictEqual(
          withoutLocations(back.constitution),
          withoutLocations(first.constitution),
        ),
    ).toBe(true);
  });
});

describe("withFile", () => {
  const files = [
    { path: "core.yaml", text: "a" },
    { path: "overlays/medical.yml", text: "b" },
    { path: "overlays/legal.yaml", text: "c" },
  ];
  it.each([
    [
      "replaces a file at the path",
      "overlays/legal.yaml",
      ["core.yaml:a", "overlays/medical.yml:b", "overlays/legal.yaml:new"],
    ],
    [
      "replaces the .yml twin of a .yaml path",
      "overlays/medical.yaml",
      ["core.yaml:a", "overlays/legal.yaml:c", "overlays/medical.yaml:new"],
    ],
    [
      "replaces the .yaml twin of a .yml path",
      "overlays/legal.yml",
      ["core.yaml:a", "overlays/medical.yml:b", "overlays/legal.yml:new"],
    ],
    [
      "adds a new file",
      "eval/more.yaml",
      ["core.yaml:a", "overlays/medical.yml:b", "overlays/legal.yaml:c", "eval/more.yaml:new"],
    ],
  ])("%s", (_label, path, expected) => {
    expect(withFile(files, path, "new").map((f) => `${f.path}:${f.text}`)).toEqual(expected);
  });
});

describe("forbidden characters (text-limits.ts)", () => {
  const core = baseText(CORE_FILE);
  const coreWith = (from: string, to: string) => {
    if (!core.includes(from)) throw new Error(`the base core.yaml has no ${JSON.stringify(from)}`);
    return [{ path: CORE_FILE, text: core.replace(from, to) }];
  };

  it.each([
    [
      "a raw NUL in a title",
      "title: Honesty and Accuracy",
      "title: Honesty\u0000 and Accuracy",
      "core.yaml:13:19: principles[1].title: contains a NUL character (U+0000); remove it",
    ],
    [
      "a raw ESC in a rule",
      "rule: Give useful",
      "rule: Give \u001b[31museful",
      "core.yaml:20:16: principles[2].rule: contains a control character (U+001B); remove it",
    ],
    [
      "a raw DEL in a comment",
      "# A minimal valid core",
      "# A minimal\u007f valid core",
      "core.yaml:1:12: (file): contains a control character (U+007F); remove it",
    ],
    [
      "a raw C1 control (NEL) in an id",
      "id: SOFT.HONEST.1",
      "id: SOFT.HONEST.1\u0085",
      "core.yaml:10:22: principles[1].id: contains a control character (U+0085); remove it",
    ],
    [
      "a raw noncharacter in a keyword",
      "keywords: [bomb, weapon]",
      "keywords: [bomb, weap\uffffon]",
      "core.yaml:8:26: principles[0].keywords[1]: contains a noncharacter (U+FFFF); remove it",
    ],
    [
      "a lone surrogate, as an editor can send",
      "title: Helpfulness",
      "title: Help\ud800fulness",
      "core.yaml:19:16: principles[2].title: contains a lone surrogate (U+D800); remove it",
    ],
    [
      "a NUL in a key, shown as U+FFFD",
      "    title: Helpfulness",
      "    ti\u0000tle: Helpfulness",
      "core.yaml:19:7: principles[2].ti\uFFFDtle: contains a NUL character (U+0000); remove it",
    ],
    [
      "a NUL written as an escape",
      "title: Honesty and Accuracy",
      'title: "Honesty\\0 and Accuracy"',
      "core.yaml:13:12: principles[1].title: contains a NUL character (U+0000), written as an escape; remove it",
    ],
    [
      "BEL written as \\x07",
      "rule: Give useful, direct answers.",
      'rule: "Give \\x07useful, direct answers."',
      "core.yaml:20:11: principles[2].rule: contains a control character (U+0007), written as an escape; remove it",
    ],
    [
      "NEL written as \\N",
      "title: Helpfulness",
      'title: "Help\\Nfulness"',
      "core.yaml:19:12: principles[2].title: contains a control character (U+0085), written as an escape; remove it",
    ],
    [
      "a lone surrogate written as \\ud800",
      "title: Helpfulness",
      'title: "Help\\ud800fulness"',
      "core.yaml:19:12: principles[2].title: contains a lone surrogate (U+D800), written as an escape; remove it",
    ],
  ])("refuses %s", (_label, from, to, expected) => {
    expect(issuesOf(coreWith(from, to)).map(formatIssue)).toEqual([expected]);
  });

  it.each([
    ["a raw tab inside a value", "title: Helpfulness", "title: Help\tfulness"],
    [
      "tab, newline and carriage return escapes",
      "title: Helpfulness",
      'title: "Help\\t\\n\\rfulness"',
    ],
    ["CRLF line endings", "\n", "\r\n"],
    ["a byte order mark", "# A minimal", "\ufeff# A minimal"],
  ])("accepts %s", (_label, from, to) => {
    const result = parseConstitution([{ path: CORE_FILE, text: core.replaceAll(from, to) }]);
    expect(result.ok ? [] : result.issues.map(formatIssue)).toEqual([]);
  });

  it(`reports ${MAX_CHARACTER_ISSUES} characters one by one, then says how many more follow`, () => {
    const issues = issuesOf(
      coreWith(
        "title: Helpfulness",
        `title: Help${"\u0000".repeat(MAX_CHARACTER_ISSUES + 5)}fulness`,
      ),
    );
    expect(issues).toHaveLength(MAX_CHARACTER_ISSUES);
    expect(formatIssue(issues.at(-1)!)).toBe(
      `core.yaml:19:${16 + MAX_CHARACTER_ISSUES - 1}: principles[2].title: contains a NUL character (U+0000); remove it; 5 more follow in this file`,
    );
  });

  it("reports a file's forbidden characters and its YAML errors, and nothing of its fields", () => {
    const issues = issuesOf(
      coreWith("title: Helpfulness", "title: Help\u0000fulness\n    priority: [1"),
    );
    expect(issues[0] && formatIssue(issues[0])).toBe(
      "core.yaml:19:16: principles[2].title: contains a NUL character (U+0000); remove it",
    );
    expect(issues.slice(1).map((i) => i.field)).toEqual(["(yaml)", "(yaml)"]);
  });

  it("checks every file, overlays and eval files included", () => {
    const medical = baseText("overlays/medical.yaml")
      .replace(
        "description: Personal health questions",
        'description: "Personal\\e health questions',
      )
      .replace("medication doses.", 'medication doses."');
    const issues = issuesOf(
      withFiles([
        { path: "overlays/medical.yaml", text: medical },
        { path: "eval/cases.yaml", text: "cases:\n  - prompt: hi\u0000\n" },
      ]),
    );
    expect(issues.map(formatIssue)).toEqual([
      "eval/cases.yaml:2:15: cases[0].prompt: contains a NUL character (U+0000); remove it",
      "overlays/medical.yaml:2:14: description: contains a control character (U+001B), written as an escape; remove it",
    ]);
  });
});

describe("size limits (limits.ts)", () => {
  /** `text` and a comment, `bytes` long in all (ASCII). */
  const padded = (text: string, bytes: number) =>
    `${text}\n# ${"x".repeat(bytes - text.length - 4)}\n`;

  it(`refuses a file over ${formatBytes(MAX_FILE_BYTES)} before parsing anything`, () => {
    const big = padded(baseText(CORE_FILE), MAX_FILE_BYTES + 1);
    expect(issuesOf(withFiles([{ path: CORE_FILE, text: big }])).map(formatIssue)).toEqual([
      `core.yaml:1:1: (file): is ${formatBytes(MAX_FILE_BYTES + 1)}; a constitution file may hold at most ${formatBytes(MAX_FILE_BYTES)}`,
    ]);
  });

  it("counts UTF-8 bytes, not characters", () => {
    const text = padded(baseText(CORE_FILE), MAX_FILE_BYTES - 1000).replace(
      "# x",
      `# ${"é".repeat(1000)}`,
    );
    expect(text.length).toBeLessThan(MAX_FILE_BYTES);
    expect(issuesOf(withFiles([{ path: CORE_FILE, text }])).map((i) => i.reason)).toEqual([
      expect.stringMatching(/^is .*; a constitution file may hold at most /),
    ]);
  });

  it("accepts a file of exactly the limit", () => {
    const result = parseConstitution(
      withFiles([{ path: CORE_FILE, text: padded(baseText(CORE_FILE), MAX_FILE_BYTES) }]),
    );
    expect(result.ok ? [] : result.issues.map(formatIssue)).toEqual([]);
  });

  it(`refuses a constitution over ${formatBytes(MAX_CONSTITUTION_BYTES)} in all, at its largest file`, () => {
    const count = Math.floor(MAX_CONSTITUTION_BYTES / MAX_FILE_BYTES) + 1;
    const evals = Array.from({ length: count }, (_, i) => ({
      path: `eval/part${i}.yaml`,
      text: padded("cases: []", MAX_FILE_BYTES - i),
    }));
    const total = [...base, ...evals].reduce((n, f) => n + Buffer.byteLength(f.text), 0);
    expect(issuesOf(withFiles(evals)).map(formatIssue)).toEqual([
      `eval/part0.yaml:1:1: (file): the constitution's ${base.length + count} files hold ${formatBytes(total)} together, over the limit of ${formatBytes(MAX_CONSTITUTION_BYTES)}; this one, the largest, holds ${formatBytes(MAX_FILE_BYTES)}`,
    ]);
  });

  it(`refuses more than ${MAX_CONSTITUTION_FILES} files, naming each one past the limit`, () => {
    const evals = Array.from({ length: MAX_CONSTITUTION_FILES }, (_, i) => ({
      path: `eval/e${String(i).padStart(3, "0")}.yaml`,
      text: "cases: []\n",
    }));
    const issues = issuesOf(withFiles(evals));
    const total = base.length + MAX_CONSTITUTION_FILES;
    expect(issues).toHaveLength(base.length);
    expect(formatIssue(issues[0]!)).toBe(
      `${issues[0]!.file}:1:1: (file): is file ${MAX_CONSTITUTION_FILES + 1} of ${total}; a constitution may have at most ${MAX_CONSTITUTION_FILES} files`,
    );
  });
});

describe("parseStoredConstitution", () => {
  it("loads a version saved before the input limits: a NUL in a title and an oversize file", () => {
    const core = baseText(CORE_FILE).replace("title: Helpfulness", "title: Help\u0000fulness");
    const files = withFiles([
      { path: CORE_FILE, text: `${core}\n# ${"x".repeat(MAX_FILE_BYTES)}\n` },
    ]);
    expect(parseConstitution(files).ok).toBe(false);
    const stored = parseStoredConstitution(files);
    if (!stored.ok) throw new Error(stored.issues.map(formatIssue).join("\n"));
    expect(stored.constitution.core[2]!.title).toBe("Help\u0000fulness");
  });

  it("still refuses what makes a version unusable", () => {
    expect(parseStoredConstitution(withFiles([], [CORE_FILE])).ok).toBe(false);
  });
});
