import { describe, expect, it } from "vitest";
import { ConflictError, ValidationError } from "@/lib/errors";
import { locatedIssues } from "./issues";

describe("locatedIssues", () => {
  const at = { file: "overlays/medical.yaml", line: 3, column: 12 };

  it.each([
    [
      "keeps the issues that say where they are",
      new ValidationError("x", [
        { path: "overlays/medical.yaml:3:12", message: "m", ...at, field: "title", reason: "r" },
        { path: "text", message: "The file is too big." },
      ]),
      [{ ...at, field: "title", reason: "r" }],
    ],
    [
      "fills in a missing field and reason",
      new ValidationError("x", [{ path: "p", message: "m", ...at }]),
      [{ ...at, field: "(file)", reason: "is invalid" }],
    ],
    ["has none in a conflict", new ConflictError("x", { currentVersionId: 2 }), []],
  ])("%s", (_, error, expected) => {
    expect(locatedIssues(error.toJSON().error)).toEqual(expected);
    expect(locatedIssues(undefined)).toEqual([]);
  });
});
