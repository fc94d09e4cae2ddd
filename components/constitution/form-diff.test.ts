import { structuredPatch } from "diff";
import { describe, expect, it } from "vitest";
import { parseConstitution } from "@/lib/constitution/parse";
import { CORE_FILE, OVERLAYS_DIR } from "@/lib/constitution/schema";
import { readConstitutionFiles, SHIPPED_CONSTITUTION_DIR } from "@/lib/files/constitution";
import { coreDraftFromYaml, coreDraftToYaml, type CoreDraft } from "./core-draft";
import { draftFromYaml, draftToYaml, type OverlayDraft } from "./overlay-draft";
import type { PrincipleDraft } from "./principle-draft";

const files = await readConstitutionFiles(SHIPPED_CONSTITUTION_DIR);
const textOf = (path: string) => files.find((f) => f.path === path)!.text;

/** The changed lines of a zero-context diff, hunk by hunk. */
const changedLines = (before: string, after: string) =>
  structuredPatch("a", "b", before, after, "", "", { context: 0 }).hunks.map((h) => h.lines);

const withFirst = (
  principles: PrincipleDraft[],
  patch: (p: PrincipleDraft) => Partial<PrincipleDraft>,
) => principles.map((p, i) => (i === 0 ? { ...p, ...patch(p) } : p));

function expectValid(path: string, text: string) {
  const result = parseConstitution([...files.filter((f) => f.path !== path), { path, text }]);
  expect(result.ok ? [] : result.issues).toEqual([]);
}

describe("a one-field edit in the overlay form changes one line of the shipped file", () => {
  const domain = "coding";
  const path = `${OVERLAYS_DIR}/${domain}.yaml`;
  const text = textOf(path);
  const read = draftFromYaml(text, domain);
  if (!read.ok) throw new Error(read.reason);
  const draft = read.draft;

  it.each<[string, (d: OverlayDraft) => OverlayDraft, string[][]]>([
    [
      "a principle's title",
      (d) => ({
        ...d,
        principles: withFirst(d.principles, () => ({ title: "Never Fake Green Tests" })),
      }),
      [['-    title: "Never Fake Passing Tests"', '+    title: "Never Fake Green Tests"']],
    ],
    [
      "a principle's priority",
      (d) => ({ ...d, principles: withFirst(d.principles, () => ({ priority: "81" })) }),
      [["-    priority: 80", "+    priority: 81"]],
    ],
    [
      "a keyword of the overlay (a block list)",
      (d) => ({ ...d, keywords: `${d.keywords}, monorepo` }),
      [["+  - monorepo"]],
    ],
    [
      "a keyword of a principle (a wrapped flow list)",
      (d) => ({
        ...d,
        principles: withFirst(d.principles, (p) => ({ keywords: `${p.keywords}, green build` })),
      }),
      [
        [
          `-${text.split("\n").find((l, i, all) => l.endsWith("]") && all.slice(0, i).some((x) => x.includes("CODE.TESTS.1")))}`,
          `+${text
            .split("\n")
            .find(
              (l, i, all) =>
                l.endsWith("]") && all.slice(0, i).some((x) => x.includes("CODE.TESTS.1")),
            )!
            .replace(/]$/, ', "green build"]')}`,
        ],
      ],
    ],
    [
      "a priority override",
      (d) => ({
        ...d,
        overrides: d.overrides.map((o) => (o.id === "SOFT.SCOPE.1" ? { ...o, priority: "70" } : o)),
      }),
      [["-  SOFT.SCOPE.1: 75", "+  SOFT.SCOPE.1: 70"]],
    ],
  ])("%s", (_, edit, expected) => {
    const after = draftToYaml(domain, edit(draft), { draft, text });
    expect(changedLines(text, after)).toEqual(expected);
    expectValid(path, after);
  });

  it("an untouched draft writes the file as it was read", () => {
    expect(draftToYaml(domain, { ...draft }, { draft, text })).toBe(text);
  });

  it("a reordered list of principles is written in full, and still reads back as the form", () => {
    const reordered = { ...draft, principles: [...draft.principles].reverse() };
    const after = draftFromYaml(draftToYaml(domain, reordered, { draft, text }), domain);
    expect(after.ok && after.draft.principles.map((p) => p.id)).toEqual(
      reordered.principles.map((p) => p.id),
    );
  });
});

describe("a one-field edit in the core form changes one line of the shipped core.yaml", () => {
  const text = textOf(CORE_FILE);
  const read = coreDraftFromYaml(text);
  if (!read.ok) throw new Error(read.reason);
  const draft = read.draft;
  const firstKeywordsEnd = text
    .split("\n")
    .find((l, i, all) => l.endsWith("]") && all.slice(0, i).some((x) => x.includes("CORE.NM.1")))!;

  it.each<[string, (d: CoreDraft) => CoreDraft, string[][]]>([
    [
      "a principle's title",
      (d) => ({ ...d, principles: withFirst(d.principles, () => ({ title: "Non-Maleficence" })) }),
      [['-    title: "Non-Maleficence (Physical Harm)"', '+    title: "Non-Maleficence"']],
    ],
    [
      "a principle's priority",
      (d) => ({ ...d, principles: withFirst(d.principles, () => ({ priority: "99" })) }),
      [["-    priority: 100", "+    priority: 99"]],
    ],
    [
      "a keyword",
      (d) => ({
        ...d,
        principles: withFirst(d.principles, (p) => ({
          keywords: `${p.keywords}, pressure cooker bomb`,
        })),
      }),
      [[`-${firstKeywordsEnd}`, `+${firstKeywordsEnd.replace(/]$/, ', "pressure cooker bomb"]')}`]],
    ],
  ])("%s", (_, edit, expected) => {
    const after = coreDraftToYaml(edit(draft), { draft, text });
    expect(changedLines(text, after)).toEqual(expected);
    expectValid(CORE_FILE, after);
  });
});

describe("the edits the e2e makes to the shipped legal overlay are one line each", () => {
  const domain = "legal";
  const text = textOf(`${OVERLAYS_DIR}/${domain}.yaml`);
  const read = draftFromYaml(text, domain);
  if (!read.ok) throw new Error(read.reason);
  const draft = read.draft;

  it.each<[string, OverlayDraft, string[][]]>([
    [
      "a priority",
      { ...draft, principles: withFirst(draft.principles, () => ({ priority: "79" })) },
      [["-    priority: 80", "+    priority: 79"]],
    ],
    ["a keyword", { ...draft, keywords: `${draft.keywords}, e2e keyword` }, [["+  - e2e keyword"]]],
  ])("%s", (_, edited, expected) => {
    expect(changedLines(text, draftToYaml(domain, edited, { draft, text }))).toEqual(expected);
  });
});
