import { describe, expect, it } from "vitest";
import { formatCount, formatUnit, formatWeighted } from "./format";

describe("the dashboard's number format", () => {
  it("shows 0..1 values with three decimals", () => {
    expect([0.685, 0.6318, 1, 0, 0.5].map(formatUnit)).toEqual([
      "0.685",
      "0.632",
      "1.000",
      "0.000",
      "0.500",
    ]);
  });
  it("shows weighted totals with two decimals and a dash for no value", () => {
    expect([8.5, 8.7, null, undefined, Number.NaN].map(formatWeighted)).toEqual([
      "8.50",
      "8.70",
      "–",
      "–",
      "–",
    ]);
    expect(formatUnit(null)).toBe("–");
  });
  it("groups counts", () => {
    expect(formatCount(12345)).toBe("12,345");
  });
});
