import { z } from "zod";
import { describe, expect, it } from "vitest";
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  PayloadTooLargeError,
  UnauthorizedError,
  UnavailableError,
  fieldIssues,
  issueLines,
  issuePath,
  ValidationError,
  validationErrorFrom,
} from "./errors";

describe("AppError", () => {
  it.each([
    [new UnauthorizedError(), 401, "unauthorized"],
    [new ForbiddenError(), 403, "forbidden"],
    [new NotFoundError("x"), 404, "not_found"],
    [new ConflictError("x"), 409, "conflict"],
    [new PayloadTooLargeError("x"), 413, "payload_too_large"],
    [new UnavailableError("x"), 503, "unavailable"],
  ])("%s has status %i and code %s", (error, status, code) => {
    expect(error.status).toBe(status);
    expect(error.toJSON().error.code).toBe(code);
  });

  it("turns zod issues into 422 details naming each field", () => {
    const result = z
      .object({ name: z.string().min(1), tags: z.array(z.string()) })
      .safeParse({ name: "", tags: [1] });
    expect(result.success).toBe(false);
    const error = validationErrorFrom(result.error!.issues);
    expect(error.status).toBe(422);
    expect(error.toJSON().error).toEqual({
      code: "invalid_input",
      message: "The input is invalid.",
      details: [
        { path: "name", message: result.error!.issues[0]!.message },
        { path: "tags.0", message: result.error!.issues[1]!.message },
      ],
    });
  });

  it("leaves details out of the body when there are none", () => {
    expect(new ValidationError("x").toJSON()).toEqual({
      error: { code: "invalid_input", message: "x" },
    });
    expect(new ConflictError("x", { currentVersionId: 4 }).toJSON().error.details).toEqual({
      currentVersionId: 4,
    });
  });
});

describe("the zod issue formatter", () => {
  const schema = z.object({
    name: z.string().min(1, "Give it a name."),
    weights: z.object({ tasteful: z.number().min(0, "At least 0.") }),
  });

  it.each([
    [[], "(root)"],
    [["name"], "name"],
    [["weights", "tasteful"], "weights.tasteful"],
    [["tags", 0], "tags.0"],
    [[Symbol("s")], "Symbol(s)"],
  ] as const)("writes the path %j as %s", (path, expected) => {
    expect(issuePath(path)).toBe(expected);
  });

  it("names each field with its message, and the whole input as (root)", () => {
    const nested = schema.safeParse({ name: "", weights: { tasteful: -1 } });
    expect(fieldIssues(nested.error!.issues)).toEqual([
      { path: "name", message: "Give it a name." },
      { path: "weights.tasteful", message: "At least 0." },
    ]);
    const root = schema.safeParse("not an object");
    expect(issueLines(root.error!.issues)).toEqual([`(root): ${root.error!.issues[0]!.message}`]);
  });
});
