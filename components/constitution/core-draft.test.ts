import { diffLines } from "diff";
import { describe, expect, it } from "vitest";
import { parseConstitution, type ConstitutionFile } from "@/lib/constitution/parse";
import { CORE_FILE } from "@/lib/constitution/schema";
import { readConstitutionFiles, SHIPPED_CONSTITUTION_DIR } from "@/lib/files/constitution";
import { coreDraftFromYaml, coreDraftToYaml, type CoreDraft } from "./core-draft";
import { issueText } from "./issues";
import { emptyPrinciple, type PrincipleDraft } from "./principle-draft";
import { invalidPrincipleCases } from "./invalid-principle-cases";

const files = await readConstitutionFiles(SHIPPED_CONSTITUTION_DIR);
const shippedCore = files.find((f) => f.path === CORE_FILE)!;

function withCore(text: string): ConstitutionFile[] {
  return [...files.filter((f) => f.path !== CORE_FILE), { path: CORE_FILE, text }];
}

function parseOrThrow(fileSet: ConstitutionFile[]) {
  const result = parseConstitution(fileSet);
  if (!result.ok)
    throw new Error(
      result.issues.map((i) => `${i.file}:${i.line} ${i.field}: ${i.reason}`).join("\n"),
    );
  return result.constitution;
}

function readOrThrow(text: string): CoreDraft {
  const read = coreDraftFromYaml(text);
  if (!read.ok) throw new Error(read.reason);
  return read.draft;
}

describe("the core form round-trips", () => {
  it("the shipped core.yaml", () => {
    const original = parseOrThrow(files);
    const again = parseOrThrow(withCore(coreDraftToYaml(readOrThrow(shippedCore.text))));
    expect(again.core).toEqual(original.core);
    expect(again.description).toEqual(original.description);
  });

  it("a description, and keywords split across keywords_block and keywords_style", () => {
    const text = [
      "description: Always on.",
      "principles:",
      "  - id: CORE.X.1",
      "    level: hard",
      "    priority: 90",
      "    title: X",
      "    rule: Do not X.",
      "    keywords: [a]",
      "    keywords_block: [b]",
      "    keywords_style: [c, A]",
      "",
    ].join("\n");
    const draft = readOrThrow(text);
    expect(draft.description).toBe("Always on.");
    expect(draft.principles[0]?.keywords).toBe("a, b, c, A");
    const again = readOrThrow(coreDraftToYaml(draft));
    expect({ ...again, principles: again.principles.map(({ key: _, ...p }) => p) }).toEqual({
      ...draft,
      principles: draft.principles.map(({ key: _, ...p }) => p),
    });
  });

  it("an edit in the form changes only that value", () => {
    const draft = readOrThrow(shippedCore.text);
    const [first, ...rest] = draft.principles;
    const edited = parseOrThrow(
      withCore(coreDraftToYaml({ ...draft, principles: [{ ...first!, priority: "99" }, ...rest] })),
    );
    const original = parseOrThrow(files);
    expect(edited.core[0]?.priority).toBe(99);
    expect(edited.core.slice(1)).toEqual(original.core.slice(1));
  });
});

describe("coreDraftFromYaml refuses only what the form cannot hold", () => {
  it.each([
    ["a YAML syntax error", "principles: [unclosed", /line 1/],
    ["invalid YAML indentation", "principles:\n  - id: A\n   level: hard\n", /^line \d+: /],
    ["a file that is a list", "- id: A\n", /must be a mapping/],
    ["an unknown field", "principals: []\n", /principals is not a known field/],
    ["principles that are not a list", "principles: nope\n", /principles must be a list/],
    ["a list where text belongs", "description:\n  - a\n", /description must be a single value/],
    [
      "a list as a core principle's domain label",
      "principles:\n  - id: X\n    domain: [core]\n",
      /principles\[0\]\.domain must be a single value/,
    ],
    [
      "an unknown principle field",
      "principles:\n  - id: X\n    colour: red\n",
      /principles\[0\]\.colour is not a known field/,
    ],
  ])("%s", (_, text, reason) => {
    const read = coreDraftFromYaml(text);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.reason).toMatch(reason);
  });
});

describe("a core principle's domain label (moralstack writes domain: core)", () => {
  const text = [
    "principles:",
    "  # moralstack's shape",
    "  - id: SOFT.FAIRNESS.1",
    "    level: soft",
    '    priority: "60"',
    "    title: Fairness",
    "    rule: Treat people fairly.",
    "    domain: core",
    "",
  ].join("\n");

  it("is read into the form and kept when another field is edited, and only that line changes", () => {
    const draft = readOrThrow(text);
    expect(draft.principles[0]?.domain).toBe("core");
    const edited = coreDraftToYaml(
      { ...draft, principles: [{ ...draft.principles[0]!, title: "Fair play" }] },
      { draft, text },
    );
    expect(edited).toBe(text.replace("title: Fairness", "title: Fair play"));
  });

  it("is written when set in the form and removed when cleared", () => {
    const draft = readOrThrow(text);
    const cleared = coreDraftToYaml(
      { ...draft, principles: [{ ...draft.principles[0]!, domain: "" }] },
      { draft, text },
    );
    expect(cleared).not.toContain("domain:");
    const labelled = coreDraftToYaml(
      { ...draft, principles: [{ ...draft.principles[0]!, domain: "fairness" }] },
      { draft, text },
    );
    expect(labelled).toContain("    domain: fairness\n");
  });
});

describe("values the engine refuses reach it from the form, located at their field", () => {
  const draft = readOrThrow(shippedCore.text);
  const issuesFor = (d: CoreDraft) => {
    const result = parseConstitution(withCore(coreDraftToYaml(d)));
    return result.ok ? [] : result.issues;
  };
  const first = draft.principles[0]!;

  it.each(invalidPrincipleCases(first))("%s", (_, principle, field, reason) => {
    const issues = issuesFor({
      ...draft,
      principles: [principle, ...draft.principles.slice(1)],
    }).filter((i) => i.file === CORE_FILE);
    expect(issueText(issues, `principles[0].${field}`)).toContain(reason);
  });

  it("no principles at all is reported at the list", () => {
    const issues = issuesFor({ ...draft, principles: [] }).filter((i) => i.file === CORE_FILE);
    expect(issueText(issues, "principles")).toMatch(/at least one principle/);
  });

  it("a new, empty principle is reported field by field", () => {
    const issues = issuesFor({
      ...draft,
      principles: [...draft.principles, emptyPrinciple()],
    }).filter((i) => i.file === CORE_FILE);
    const at = `principles[${draft.principles.length}]`;
    expect(issueText(issues, `${at}.id`)).toBeDefined();
    expect(issueText(issues, `${at}.title`)).toBeDefined();
    expect(issueText(issues, `${at}.rule`)).toBeDefined();
  });

  // It broke that overlay before issue 12; an override of no principle is ignored with a warning now, as moralstack ignores it.
  it("removing a principle that an overlay overrides leaves that overlay a warning", () => {
    const overridden = "SOFT.HONEST.1";
    const result = parseConstitution(
      withCore(
        coreDraftToYaml({
          ...draft,
          principles: draft.principles.filter((p) => p.id !== overridden),
        }),
      ),
    );
    // (The shipped evals name it too, and they stay errors: an eval must measure a principle that exists.)
    expect(result.ok ? [] : result.issues.filter((i) => i.file.startsWith("overlays/"))).toEqual(
      [],
    );
    expect(
      (result.warnings ?? []).some(
        (w) => w.file.startsWith("overlays/") && w.reason.includes(overridden),
      ),
    ).toBe(true);
  });
});

describe("a form edit rewrites only the lines it changes", () => {
  const readFrom = { draft: readOrThrow(shippedCore.text), text: shippedCore.text };
  const at = (id: string) => readFrom.draft.principles.findIndex((p) => p.id === id);
  const edit = (id: string, change: Partial<PrincipleDraft>): CoreDraft => ({
    ...readFrom.draft,
    principles: readFrom.draft.principles.map((p) => (p.id === id ? { ...p, ...change } : p)),
  });
  const changedLines = (text: string) => {
    const changes = diffLines(shippedCore.text, text);
    const lines = (kind: "added" | "removed") =>
      changes.filter((c) => c[kind]).flatMap((c) => c.value.replace(/\n$/, "").split("\n"));
    return { removed: lines("removed"), added: lines("added") };
  };
  /** Written with the original text, and equal, once parsed alone, to what the engine's serializer writes. */
  function write(draft: CoreDraft): string {
    const text = coreDraftToYaml(draft, readFrom);
    expect(parseOrThrow([{ path: CORE_FILE, text }]).core).toEqual(
      parseOrThrow([{ path: CORE_FILE, text: coreDraftToYaml(draft) }]).core,
    );
    return text;
  }

  const was = (id: string) => readFrom.draft.principles[at(id)]!;
  it.each([
    ["a priority", "SOFT.CLARITY.1", "priority", "45", (v: string) => `    priority: ${v}`],
    ["a level", "SOFT.CLARITY.1", "level", "hard", (v: string) => `    level: ${v}`],
    [
      "a quoted title, kept quoted",
      "CORE.NM.1",
      "title",
      "Non-Maleficence",
      (v: string) => `    title: "${v}"`,
    ],
  ] as const)("%s", (_, id, field, value, line) => {
    expect(changedLines(write(edit(id, { [field]: value })))).toEqual({
      removed: [line(was(id)[field])],
      added: [line(value)],
    });
  });

  it("a folded rule stays folded, and only the rule's lines change", () => {
    const rule =
      "Never provide operational detail that would help someone physically hurt people.\n";
    const text = write(edit("CORE.NM.1", { rule }));
    expect(text).toContain("    rule: >\n      Never provide operational detail");
    expect(text.split("\n").length).toBeLessThan(shippedCore.text.split("\n").length);
    expect(
      text.startsWith(shippedCore.text.slice(0, shippedCore.text.indexOf("    rule: >"))),
    ).toBe(true);
  });

  it("a keyword list keeps its flow style and quotes", () => {
    const { removed, added } = changedLines(write(edit("CORE.NM.1", { keywords: "bomb, weapon" })));
    // Only the old list's lines go, however many it spanned.
    expect(removed[0]).toMatch(/^ {4}keywords: \[/);
    expect(removed.slice(1).every((l) => /^ {6}"/.test(l))).toBe(true);
    expect(added).toEqual(['    keywords: ["bomb", "weapon"]']);
  });

  it("emptying an optional field removes its key", () => {
    const { added } = changedLines(write(edit("SOFT.CLARITY.1", { remediation: "" })));
    expect(added).toEqual([]);
    expect(
      readOrThrow(coreDraftToYaml(edit("SOFT.CLARITY.1", { remediation: "" }), readFrom))
        .principles[at("SOFT.CLARITY.1")]?.remediation,
    ).toBe("");
  });

  it("a removed principle takes only its own lines", () => {
    const removedId = "SOFT.BALANCED.1";
    const text = write({
      ...readFrom.draft,
      principles: readFrom.draft.principles.filter((p) => p.id !== removedId),
    });
    const { removed, added } = changedLines(text);
    expect(added).toEqual([]);
    expect(removed[0]).toBe(`  - id: "${removedId}"`);
    expect(text).toContain("# Charter core constitution.");
    expect(text).not.toContain("\n\n\n");
  });

  it("an added principle is appended in its neighbour's style; the rest stays as written", () => {
    const added = {
      ...emptyPrinciple(),
      id: "SOFT.NEW.1",
      title: "New",
      rule: "Be new.",
      priority: "33",
      keywords: "new",
    };
    const text = write({ ...readFrom.draft, principles: [...readFrom.draft.principles, added] });
    expect(text.startsWith(shippedCore.text.trimEnd())).toBe(true);
    expect(text.slice(shippedCore.text.trimEnd().length)).toBe(
      '\n\n  - id: "SOFT.NEW.1"\n    level: soft\n    priority: 33\n    title: "New"\n    rule: >-\n      Be new.\n    keywords: ["new"]\n',
    );
  });

  it("a description is added after the header comment, before the principles", () => {
    const text = write({ ...readFrom.draft, description: "Always on." });
    expect(changedLines(text)).toEqual({ removed: [], added: ["description: Always on."] });
    expect(text.indexOf("description: Always on.")).toBeGreaterThan(
      text.indexOf("# Charter core constitution."),
    );
    expect(text.indexOf("description: Always on.")).toBeLessThan(text.indexOf("principles:"));
  });

  it("rows in another order are written out in full", () => {
    const [first, second, ...rest] = readFrom.draft.principles;
    const text = coreDraftToYaml(
      { ...readFrom.draft, principles: [second!, first!, ...rest] },
      readFrom,
    );
    expect(text).not.toContain("# Charter core constitution.");
    expect(
      parseOrThrow(withCore(text))
        .core.map((p) => p.id)
        .slice(0, 2),
    ).toEqual([second!.id, first!.id]);
  });

  it("a draft the lines cannot express faithfully is written out in full", () => {
    const text =
      "principles:\n  - {id: CORE.X.1, level: hard, priority: 90, title: X, rule: Do X.}\n";
    const from = { draft: readOrThrow(text), text };
    const draft = { ...from.draft, principles: [{ ...from.draft.principles[0]!, priority: "91" }] };
    expect(coreDraftToYaml(draft, from)).toBe(coreDraftToYaml(draft));
  });
});
