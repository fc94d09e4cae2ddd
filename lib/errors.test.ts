import { z } from "zod";
import { describe, expect, it } from "vitest";
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitedError,
  UnauthorizedError,
  UnavailableError,
  validationErrorFrom,
} from "./errors";

describe("AppError", () => {
  it.each([
    [new UnauthorizedError(), 401, "unauthorized"],
    [new ForbiddenError(), 403, "forbidden"],
    [new NotFoundError("x"), 404, "not_found"],
    [new ConflictError("x"), 409, "conflict"],
    [new PayloadTooLargeError("x"), 413, "payload_too_large"],
    [new RateLimitedError(), 429, "rate_limited"],
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
    expect((error.details as { path: string }[]).map((d) => d.path)).toEqual(["name", "tags.0"]);
  });
});
