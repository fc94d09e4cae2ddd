import { describe, expect, it } from "vitest";
import { DEFAULT_SORT, filterRows, nextSort, sortRows, type TrustRow } from "./rows";

const row = (id: string, fields: Partial<TrustRow> = {}): TrustRow => ({
  id,
  title: `Title of ${id}`,
  level: "soft",
  domain: null,
  inConstitution: true,
  useCount: 0,
  successCount: 0,
  raw: null,
  smoothed: 0.5,
  lowerBound: 0,
  trend: [],
  ...fields,
});

describe("sortRows", () => {
  it("orders by lower bound, then use count, by default", () => {
    const rows = [
      row("a", { lowerBound: 0.2, useCount: 3 }),
      row("b", { lowerBound: 0.5, useCount: 1 }),
      row("c", { lowerBound: 0.2, useCount: 9 }),
    ];
    expect(sortRows(rows, DEFAULT_SORT).map((r) => r.id)).toEqual(["b", "c", "a"]);
  });

  it.each(["asc", "desc"] as const)(
    "puts unused principles (no raw trust) last when sorting %s",
    (dir) => {
      const rows = [
        row("unused"),
        row("low", { raw: 0.1, useCount: 1 }),
        row("high", { raw: 0.9, useCount: 1 }),
      ];
      expect(sortRows(rows, { key: "raw", dir }).at(-1)?.id).toBe("unused");
    },
  );

  it("sorts a missing domain as core", () => {
    const rows = [
      row("x", { domain: "medical" }),
      row("y", { domain: null }),
      row("z", { domain: "code" }),
    ];
    expect(sortRows(rows, { key: "domain", dir: "asc" }).map((r) => r.id)).toEqual(["z", "y", "x"]);
  });

  it("does not change the rows it is given", () => {
    const rows = [row("b"), row("a")];
    sortRows(rows, { key: "id", dir: "asc" });
    expect(rows.map((r) => r.id)).toEqual(["b", "a"]);
  });
});

describe("nextSort", () => {
  it.each([
    [
      { key: "lowerBound", dir: "desc" } as const,
      "lowerBound" as const,
      { key: "lowerBound", dir: "asc" },
    ],
    [{ key: "lowerBound", dir: "desc" } as const, "title" as const, { key: "title", dir: "asc" }],
    [{ key: "title", dir: "asc" } as const, "useCount" as const, { key: "useCount", dir: "desc" }],
  ])("from %j, a click on %s gives %j", (current, key, expected) => {
    expect(nextSort(current, key)).toEqual(expected);
  });
});

describe("filterRows", () => {
  const rows = [
    row("safety-1", { level: "hard" }),
    row("med-1", { domain: "medical", title: "Cite dosage sources" }),
    row("style-1"),
  ];

  it.each([
    [{ domain: "core", level: "", text: "" }, ["safety-1", "style-1"]],
    [{ domain: "medical", level: "", text: "" }, ["med-1"]],
    [{ domain: "", level: "hard", text: "" }, ["safety-1"]],
    [{ domain: "", level: "", text: "DOSAGE" }, ["med-1"]],
    [{ domain: "", level: "", text: "style" }, ["style-1"]],
  ])("%j keeps %j", (filter, ids) => {
    expect(filterRows(rows, filter).map((r) => r.id)).toEqual(ids);
  });
});
