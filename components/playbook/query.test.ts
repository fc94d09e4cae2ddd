import { describe, expect, it } from "vitest";
import { PRUNE_HARMFUL_FLOOR } from "@/lib/playbook";
import { SEED_PRUNE_TABLE } from "@/test/fixtures/seeds/playbook";
import { PRUNE_RULE, ruleWithCounts } from "./format";
import { parsePlaybookQuery, storeStatus } from "./query";

describe("parsePlaybookQuery", () => {
  it.each([
    [{}, { q: "", status: "" }],
    [
      { q: "  globals ", status: "pruned" },
      { q: "globals", status: "pruned" },
    ],
    [{ status: "deleted" }, { q: "", status: "" }],
    [
      { q: ["first", "second"], status: ["all"] },
      { q: "first", status: "all" },
    ],
  ])("reads %j", (params, query) => {
    expect(parsePlaybookQuery(params)).toEqual(query);
  });

  it("caps the search text", () => {
    expect(parsePlaybookQuery({ q: "x".repeat(500) }).q).toHaveLength(200);
  });
});

describe("storeStatus", () => {
  it("lists everything for the default filter (pruned ones are dropped after)", () => {
    expect(storeStatus("")).toBe("all");
    expect(storeStatus("proposed")).toBe("proposed");
  });
});

describe("the prune rule as shown", () => {
  it("names the engine's floor", () => {
    expect(PRUNE_RULE).toBe(`harmful >= ${PRUNE_HARMFUL_FLOOR} and harmful > helpful`);
  });

  it.each(SEED_PRUNE_TABLE)("fills in helpful %i, harmful %i", (helpful, harmful) => {
    expect(ruleWithCounts({ helpful, harmful })).toBe(
      `${harmful} >= ${PRUNE_HARMFUL_FLOOR} and ${harmful} > ${helpful}`,
    );
  });
});
