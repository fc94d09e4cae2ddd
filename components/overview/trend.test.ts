import { describe, expect, it } from "vitest";
import { fillDays } from "./trend";

describe("fillDays", () => {
  const today = new Date("2025-03-02T15:30:00Z");

  it("gives one point per day ending today, oldest first, with gaps as null", () => {
    const points = fillDays([{ day: "2025-03-01", turns: 4, avgNormalized: 0.8 }], 3, today);
    expect(points).toEqual([
      { day: "2025-02-28", turns: 0, avgNormalized: null },
      { day: "2025-03-01", turns: 4, avgNormalized: 0.8 },
      { day: "2025-03-02", turns: 0, avgNormalized: null },
    ]);
  });

  it.each([
    [1, ["2025-03-02"]],
    [30, null],
  ] as const)("covers %i days", (days, expected) => {
    const points = fillDays([], days, today);
    expect(points).toHaveLength(days);
    expect(points.at(-1)?.day).toBe("2025-03-02");
    if (expected) expect(points.map((p) => p.day)).toEqual(expected);
  });

  it("drops days outside the window", () => {
    const points = fillDays([{ day: "2025-01-01", turns: 9, avgNormalized: 0.1 }], 7, today);
    expect(points.every((p) => p.turns === 0)).toBe(true);
  });

  it("keeps an average of 0 (a real score), distinct from no turns", () => {
    const points = fillDays([{ day: "2025-03-02", turns: 1, avgNormalized: 0 }], 1, today);
    expect(points[0]).toEqual({ day: "2025-03-02", turns: 1, avgNormalized: 0 });
  });
});
