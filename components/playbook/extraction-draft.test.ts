import { describe, expect, it } from "vitest";
import { applyExtractionSchema } from "@/lib/schemas/playbook";
import { extractionFromForm } from "./extraction-draft";

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
