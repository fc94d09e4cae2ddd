import { describe, expect, it } from "vitest";
import { parseConstitution, type ConstitutionFile } from "@/lib/constitution/parse";
import { withoutLocations } from "@/lib/constitution/schema";
import { readConstitutionFiles, SHIPPED_CONSTITUTION_DIR } from "@/lib/files/constitution";
import { issueText } from "./issues";
import { draftFromYaml, draftToYaml } from "./overlay-draft";
import { emptyPrinciple } from "./principle-draft";
import { invalidPrincipleCases } from "./invalid-principle-cases";

const files = await readConstitutionFiles(SHIPPED_CONSTITUTION_DIR);
const overlayFiles = files.filter((f) => f.path.startsWith("overlays/"));
const domainOf = (path: string) => path.replace(/^overlays\/(.+)\.ya?ml$/, "$1");

function withOverlay(path: string, text: string): ConstitutionFile[] {
  return [...files.filter((f) => f.path !== path), { path, text }];
}

function parseOrThrow(fileSet: ConstitutionFile[]) {
  const result = parseConstitution(fileSet);
  if (!result.ok)
    throw new Error(
      result.issues.map((i) => `${i.file}:${i.line} ${i.field}: ${i.reason}`).join("\n"),
    );
  return result.constitution;
}

describe("the overlay form round-trips every shipped overlay", () => {
  const original = parseOrThrow(files);
  it.each(overlayFiles.map((f) => [f.path, f] as const))("%s", (path, file) => {
    const domain = domainOf(path);
    const read = draftFromYaml(file.text, domain);
    if (!read.ok) throw new Error(read.reason);
    const again = parseOrThrow(withOverlay(path, draftToYaml(domain, read.draft)));
    // The content, not where each principle was written (defined_at): the form may move lines.
    expect(withoutLocations(again).overlays[domain]).toEqual(
      withoutLocations(original).overlays[domain],
    );
  });
});

describe("draftFromYaml refuses only what the form cannot hold", () => {
  it.each([
    ["a YAML syntax error", "description: [unclosed", /line 1/],
    ["an unknown field", "descripton: typo\n", /descripton is not a known field/],
    ["another overlay's domain", "domain: legal\n", /domain must be medical/],
    ["a list where text belongs", "description:\n  - a\n", /description must be a single value/],
    ["a non-boolean flag", "excluded: maybe\n", /excluded must be true or false/],
    [
      "an unknown principle field",
      "additional_principles:\n  - id: X\n    colour: red\n",
      /additional_principles\[0\]\.colour is not a known field/,
    ],
  ])("%s", (_, text, reason) => {
    const read = draftFromYaml(text, "medical");
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.reason).toMatch(reason);
  });
});

describe("values the engine refuses reach it from the form, located at their field", () => {
  const path = "overlays/medical.yaml";
  const read = draftFromYaml(files.find((f) => f.path === path)!.text, "medical");
  if (!read.ok) throw new Error(read.reason);
  const issuesFor = (draft: typeof read.draft) => {
    const result = parseConstitution(withOverlay(path, draftToYaml("medical", draft)));
    return result.ok ? [] : result.issues.filter((i) => i.file === path);
  };
  const first = read.draft.principles[0]!;

  it.each(invalidPrincipleCases(first))("%s", (_, principle, field, reason) => {
    const issues = issuesFor({
      ...read.draft,
      principles: [principle, ...read.draft.principles.slice(1)],
    });
    expect(issueText(issues, `additional_principles[0].${field}`)).toContain(reason);
  });

  // An error before issue 12; moralstack ignores such an override, so it is a warning now, still at its id.
  it("an override naming no principle is a warning at its id", () => {
    const result = parseConstitution(
      withOverlay(
        path,
        draftToYaml("medical", {
          ...read.draft,
          overrides: [{ key: "k", id: "NOPE.1", priority: "50" }],
        }),
      ),
    );
    expect(result.ok).toBe(true);
    expect(issueText(result.warnings ?? [], "priority_overrides.NOPE.1")).toMatch(
      /names no principle/,
    );
  });

  it("a new, empty principle is reported field by field", () => {
    const issues = issuesFor({
      ...read.draft,
      principles: [...read.draft.principles, emptyPrinciple()],
    });
    const at = `additional_principles[${read.draft.principles.length}]`;
    expect(issueText(issues, `${at}.id`)).toBeDefined();
    expect(issueText(issues, `${at}.title`)).toBeDefined();
    expect(issueText(issues, `${at}.rule`)).toBeDefined();
  });
});
