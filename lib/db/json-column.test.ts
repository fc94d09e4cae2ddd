import { describe, expect, it } from "vitest";
import { z } from "zod";
import { outcomeSignalsSchema } from "@/lib/schemas/session-rows";
import { KEY_POINT_STATUSES, keyPointStatusSchema } from "@/lib/schemas/statuses";
import { CorruptRowError, parseColumn } from "./json-column";

const ref = { table: "session_outcome", id: "s-1", field: "signals" };

describe("parseColumn", () => {
  it("returns the parsed value of a column that holds what it promises", () => {
    expect(parseColumn(z.array(z.string()), ["a", "b"], ref)).toEqual(["a", "b"]);
  });

  it.each(KEY_POINT_STATUSES)("accepts the status %s", (status) => {
    expect(parseColumn(keyPointStatusSchema, status, { ...ref, field: "status" })).toBe(status);
  });

  it.each([
    ["a number where signals belong", 3],
    ["signals missing a field", { tool_success_rate: 1 }],
    ["null", null],
  ])("refuses %s, naming the table, the row and the field", (_, value) => {
    const thrown = (() => {
      try {
        parseColumn(outcomeSignalsSchema, value, ref);
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(CorruptRowError);
    expect((thrown as CorruptRowError).message).toMatch(/^session_outcome row s-1: signals /);
    expect((thrown as CorruptRowError).ref).toEqual(ref);
  });

  it("refuses a status outside its list", () => {
    expect(() =>
      parseColumn(keyPointStatusSchema, "archived", {
        table: "key_point",
        id: "kpt_1",
        field: "status",
      }),
    ).toThrow(/key_point row kpt_1: status does not parse/);
  });
});
