import { describe, expect, it } from "vitest";
import { PRINCIPLES, type ScoreDict } from "@/lib/reward";
import { mergeRows, type TurnRow } from "./rows";

const scores = Object.fromEntries(PRINCIPLES.map((p) => [p, 1])) as ScoreDict;
const row = (id: string, scoredAt: string, weightedTotal = 8.7): TurnRow => ({
  id,
  sessionId: "s",
  agent: null,
  number: 1,
  prompt: "",
  scoredAt,
  weightedTotal,
  maxTotal: 8.7,
  normalizedTotal: weightedTotal / 8.7,
  scores,
  overridden: false,
});

describe("mergeRows", () => {
  const older = [row("b", "2025-01-01T10:00:00.000Z"), row("a", "2025-01-01T09:00:00.000Z")];

  it("puts new rows on top and keeps the rows loaded before", () => {
    const fresh = [row("c", "2025-01-01T11:00:00.000Z"), row("b", "2025-01-01T10:00:00.000Z")];
    expect(mergeRows(fresh, older).map((r) => r.id)).toEqual(["c", "b", "a"]);
  });

  it("keeps the fresh values of a row in both", () => {
    const fresh = [row("b", "2025-01-01T10:00:00.000Z", 6.45)];
    expect(mergeRows(fresh, older).find((r) => r.id === "b")?.weightedTotal).toBe(6.45);
  });

  it("orders ties on scored_at by turn id, descending, as the API does", () => {
    const at = "2025-01-01T12:00:00.000Z";
    expect(mergeRows([row("x", at)], [row("y", at), row("w", at)]).map((r) => r.id)).toEqual([
      "y",
      "x",
      "w",
    ]);
  });
});
