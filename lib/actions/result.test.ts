import { describe, expect, it } from "vitest";
import { ConflictError, NotFoundError, ValidationError } from "@/lib/errors";
import { conflictVersionOf, fieldIssuesOf, fieldMessage, type ActionError } from "./result";

const refused = (error: { toJSON(): { error: ActionError } }) => error.toJSON().error;

describe("the typed errors of a refused action", () => {
  const invalid = refused(
    new ValidationError("The input is invalid.", [
      { path: "email", message: "Enter an e-mail address." },
      { path: "weights.tasteful", message: "At least 0." },
    ]),
  );

  it.each([
    ["an invalid input", invalid, "email", "Enter an e-mail address."],
    ["an invalid input, nested field", invalid, "weights.tasteful", "At least 0."],
    ["an invalid input, another field", invalid, "name", undefined],
    ["a validation error without details", refused(new ValidationError("x")), "email", undefined],
    ["a conflict", refused(new ConflictError("x", { currentVersionId: 3 })), "email", undefined],
    ["a not found", refused(new NotFoundError("x")), "email", undefined],
    ["no error", null, "email", undefined],
  ])("%s: the message for %s", (_, error, field, expected) => {
    expect(fieldMessage(error, field as string)).toBe(expected);
  });

  it("lists the field issues of an invalid input only", () => {
    expect(fieldIssuesOf(invalid).map((i) => i.path)).toEqual(["email", "weights.tasteful"]);
    expect(fieldIssuesOf(refused(new ConflictError("x")))).toEqual([]);
    expect(fieldIssuesOf(undefined)).toEqual([]);
  });

  it.each([
    ["names the current version", refused(new ConflictError("x", { currentVersionId: 7 })), 7],
    ["names none", refused(new ConflictError("x", { currentVersionId: null })), null],
    ["has no details", refused(new ConflictError("x")), null],
    ["is not a conflict", invalid, null],
  ])("a conflict that %s", (_, error, expected) => {
    expect(conflictVersionOf(error)).toBe(expected);
  });
});
