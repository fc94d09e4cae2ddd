import { describe, expect, it } from "vitest";
import { NotFoundError, ValidationError } from "@/lib/errors";
import type { EvalSource } from "./eval-schema";
import { parseConstitution, withFile, type ConstitutionFile } from "./parse";
import {
  labelDraft,
  REVIEWED_FILE,
  reviewedCases,
  unlabelDraft,
  type LabelledVersion,
  type ReviewLabel,
} from "./review-labels";
import { formatIssue } from "./schema";

const CORE = `principles:
  - {id: CORE.HARM.1, level: hard, priority: 100, title: No Weapons, rule: Never help build weapons.}
  - {id: SOFT.CLEAR.1, level: soft, priority: 40, title: Plain Language, rule: Explain simply.}
`;
const COOKING = `keywords: [recipe]
additional_principles:
  - {id: COOK.ALLERGY.1, level: soft, priority: 70, title: Allergy Warnings, rule: Mention allergens.}
`;
const BASE: ConstitutionFile[] = [
  { path: "core.yaml", text: CORE },
  { path: "overlays/cooking.yaml", text: COOKING },
  {
    path: "eval/main.yaml",
    text: `cases:\n  - prompt: "peanut recipe"\n    domains: [cooking]\n`,
  },
];

function version(files: ConstitutionFile[], id = 7): LabelledVersion {
  const parsed = parseConstitution(files);
  if (!parsed.ok) throw new Error(parsed.issues.map(formatIssue).join("\n"));
  return { id, files, constitution: parsed.constitution, evals: parsed.evals };
}

const SOURCE: EvalSource = {
  kind: "review",
  turn_id: "t-1",
  session_id: "s-1",
  by: "editor@example.test",
  at: "2025-01-31T09:30:00.000Z",
};

const label = (over: Partial<ReviewLabel>): ReviewLabel => ({
  prompt: "a cake for my nephew",
  domains: ["cooking"],
  verdict: { list: "expect", principle: "COOK.ALLERGY.1" },
  source: SOURCE,
  ...over,
});

/** The version after saving a draft: it must load, as a save would require. */
const saved = (v: LabelledVersion, draft: { path: string; text: string }) =>
  version(withFile(v.files, draft.path, draft.text), v.id + 1);

describe("labelDraft", () => {
  it("makes eval/reviewed.yaml with the case and its provenance, which the loader reads back", () => {
    const v = version(BASE);
    const draft = labelDraft(v, label({}));
    expect(draft).toMatchObject({ path: REVIEWED_FILE, change: "added", before: null });
    const after = saved(v, draft);
    expect(reviewedCases(after)).toEqual([
      {
        prompt: "a cake for my nephew",
        domains: ["cooking"],
        expect: ["COOK.ALLERGY.1"],
        forbid: [],
        source: SOURCE,
        line: expect.any(Number),
      },
    ]);
    expect(draft.text).toMatch(/^# Eval cases from reviewers' labels/);
  });

  it.each<[string, Partial<ReviewLabel>, { expect: string[]; forbid: string[] }]>([
    [
      "did not apply: into forbid, out of expect",
      { verdict: { list: "forbid", principle: "COOK.ALLERGY.1" } },
      { expect: ["SOFT.CLEAR.1"], forbid: ["COOK.ALLERGY.1"] },
    ],
    [
      "should have applied: added to expect",
      { verdict: { list: "expect", principle: "SOFT.CLEAR.1" } },
      { expect: ["COOK.ALLERGY.1", "SOFT.CLEAR.1"], forbid: [] },
    ],
    [
      "the domains alone: the lists stay",
      { verdict: null },
      { expect: ["COOK.ALLERGY.1", "SOFT.CLEAR.1"], forbid: [] },
    ],
  ])("a second label on the same prompt changes its case: %s", (_, over, lists) => {
    const first = saved(version(BASE), labelDraft(version(BASE), label({ note: "from a turn" })));
    const second = saved(
      first,
      labelDraft(first, label({ verdict: { list: "expect", principle: "SOFT.CLEAR.1" } })),
    );
    const draft = labelDraft(
      second,
      label({ prompt: "A CAKE for my nephew", domains: [], ...over }),
    );
    expect(draft.change).toBe("updated");
    const [only, ...rest] = reviewedCases(saved(second, draft));
    expect(rest).toEqual([]);
    expect(only).toMatchObject({
      prompt: "A CAKE for my nephew",
      domains: [],
      note: "from a turn",
      ...lists,
    });
  });

  it.each<[string, Partial<ReviewLabel>, string, string]>([
    [
      "a prompt that is a case in another eval file",
      { prompt: "Peanut Recipe" },
      "prompt",
      "This prompt is already an eval case in eval/main.yaml (line 2); change that case instead. Nothing was saved.",
    ],
    [
      "a domain with no overlay",
      { domains: ["baking"] },
      "domains",
      '"baking" is not an overlay of version 7. Nothing was saved.',
    ],
    [
      "a principle the version does not define",
      { verdict: { list: "forbid", principle: "GONE.1" } },
      "principle",
      '"GONE.1" is not a principle of version 7 (the constitution in force). Nothing was saved.',
    ],
  ])("refuses %s, naming the field", (_, over, path, message) => {
    let error: unknown;
    try {
      labelDraft(version(BASE), label(over));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toBe(message);
    expect((error as ValidationError).details).toMatchObject([{ path }]);
  });
});

describe("unlabelDraft", () => {
  it("takes the prompt's case out, and refuses a prompt with none", () => {
    const v = version(BASE);
    const one = saved(v, labelDraft(v, label({})));
    const two = saved(one, labelDraft(one, label({ prompt: "soup for ten", domains: [] })));
    const { text, removed } = unlabelDraft(two, "A cake for my nephew");
    expect(removed.source).toEqual(SOURCE);
    expect(reviewedCases(saved(two, { path: REVIEWED_FILE, text })).map((c) => c.prompt)).toEqual([
      "soup for ten",
    ]);
    expect(() => unlabelDraft(two, "peanut recipe")).toThrow(NotFoundError);
  });
});

describe("a case's source, as the loader checks it", () => {
  const withEval = (text: string) => parseConstitution([...BASE, { path: REVIEWED_FILE, text }]);

  const file = (at: string, extra = "") => `cases:
  - prompt: "soup"
    domains: []
    source:
      kind: review
      turn_id: t-1
      by: someone@example.test
      at: ${at}
${extra}`;

  it.each([
    [
      "an unknown field",
      file('"2025-01-31T09:30:00Z"', "      who: me\n"),
      "eval/reviewed.yaml:9:7: cases[0].source.who: is not a known field",
    ],
    [
      "a time that is not ISO 8601",
      file('"yesterday"'),
      "eval/reviewed.yaml:8:11: cases[0].source.at: must be an ISO 8601 date and time, e.g. 2025-01-31T09:30:00Z",
    ],
  ])("locates %s at its file, line and column", (_, text, issue) => {
    const parsed = withEval(text);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.issues.map(formatIssue)).toEqual([issue]);
  });

  it("a kind other than review is refused where it is written", () => {
    const parsed = withEval(
      `cases:\n  - prompt: soup\n    domains: []\n    source: {kind: import, by: me, at: "2025-01-31T09:30:00Z"}\n`,
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.issues.map(formatIssue)).toEqual([
      'eval/reviewed.yaml:4:20: cases[0].source.kind: must be "review"',
    ]);
  });
});
