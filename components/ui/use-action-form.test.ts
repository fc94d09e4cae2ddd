import type { FieldValues, UseFormReturn } from "react-hook-form";
import { describe, expect, it, vi } from "vitest";
import { ConflictError, ValidationError } from "@/lib/errors";
import { formError, putFieldIssues } from "./use-action-form";

describe("a refusal's field issues on the form", () => {
  const stub = () => {
    const setError = vi.fn();
    return { form: { setError } as unknown as UseFormReturn<FieldValues>, setError };
  };

  it("puts each field issue of an invalid input on its field", () => {
    const { form, setError } = stub();
    putFieldIssues(
      form,
      new ValidationError("The input is invalid.", [
        { path: "email", message: "Enter a valid e-mail address." },
        { path: "weights.tasteful", message: "must not be negative" },
      ]).toJSON().error,
    );
    expect(setError.mock.calls).toEqual([
      ["email", { type: "server", message: "Enter a valid e-mail address." }],
      ["weights.tasteful", { type: "server", message: "must not be negative" }],
    ]);
  });

  it("puts nothing on the fields for a refusal without field issues", () => {
    const { form, setError } = stub();
    putFieldIssues(form, new ConflictError("x", { currentVersionId: 2 }).toJSON().error);
    expect(setError).not.toHaveBeenCalled();
  });

  it.each([
    ["email", "Enter a valid e-mail address."],
    ["weights.tasteful", "must not be negative"],
    ["weights.curated", undefined],
    ["name", undefined],
  ])("reads the message for %s", (path, expected) => {
    const errors = {
      email: { type: "server", message: "Enter a valid e-mail address." },
      weights: { tasteful: { type: "too_small", message: "must not be negative" } },
    };
    expect(formError(errors, path)).toBe(expected);
  });
});
