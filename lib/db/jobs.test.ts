import { describe, expect, it } from "vitest";
import { LeaseLostError } from "./jobs";

describe("LeaseLostError", () => {
  it.each([
    ["recompute", "Lost the lease on the recompute job 12."],
    ["reflect", "Lost the lease on the reflection job 7."],
    [undefined, "Lost the lease on job 3."],
  ] as const)("names a %s job by its kind", (kind, message) => {
    const id = Number(/\d+/.exec(message)![0]);
    const error = new LeaseLostError(id, kind);
    expect(error.message).toBe(message);
    expect(error).toMatchObject({ name: "LeaseLostError", jobId: id, kind });
  });
});
