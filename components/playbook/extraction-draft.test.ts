import { describe, expect, it } from "vitest";
import { applyExtractionSchema } from "@/lib/schemas/playbook";
import { extractionFromForm, readDraft, type ExtractionDraft } from "./extraction-draft";

describe("extractionFromForm", () => {
  it("makes one new key point per non-blank line, trimmed", () => {
    expect(
      extractionFromForm("  Use structured logging \n\n Pin versions\n", []).new_key_points,
    ).toEqual(["Use structured logging", "Pin versions"]);
  });

  it("keeps the evaluation rows that name a key point", () => {
    const rows = [
      { name: " kpt_001 ", rating: "helpful" as const },
      { name: "", rating: "harmful" as const },
    ];
    expect(extractionFromForm("", rows).evaluations).toEqual([
      { name: "kpt_001", rating: "helpful" },
    ]);
  });

  it("is what the action's schema reads", () => {
    const extraction = extractionFromForm("Pin versions", [{ name: "kpt_001", rating: "harmful" }]);
    const parsed = applyExtractionSchema.parse({ extraction });
    expect(parsed.extraction).toMatchObject({
      new_key_points: ["Pin versions"],
      evaluations: [{ name: "kpt_001", rating: "harmful" }],
    });
  });
});

describe("readDraft", () => {
  const draft = (over: Partial<ExtractionDraft>): ExtractionDraft => ({
    mode: "form",
    json: "",
    newPoints: "",
    evaluations: [{ name: "", rating: "helpful" }],
    sessionId: "",
    ...over,
  });

  it.each([
    ["an empty form", draft({}), ["Add a new key point or an evaluation."]],
    [
      "JSON that does not parse",
      draft({ mode: "json", json: "{" }),
      [expect.stringMatching(/^Not valid JSON: /)],
    ],
    [
      "JSON that is not an object",
      draft({ mode: "json", json: "[]" }),
      [expect.stringMatching(/^extraction: /)],
    ],
  ])("refuses %s with its problems", (_, given, problems) => {
    expect(readDraft(given).problems).toEqual(problems);
  });

  it("sends the form as the action's input, the session id trimmed or left out", () => {
    expect(readDraft(draft({ newPoints: "Pin versions\n", sessionId: " s-1 " }))).toEqual({
      input: {
        extraction: { new_key_points: ["Pin versions"], evaluations: [] },
        sessionId: "s-1",
      },
    });
    const pasted = readDraft(draft({ mode: "json", json: '{"new_key_points": ["x"]}' }));
    expect(pasted).toEqual({
      input: { extraction: { new_key_points: ["x"] }, sessionId: undefined },
    });
  });
});
