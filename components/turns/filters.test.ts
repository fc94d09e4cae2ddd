import { describe, expect, it } from "vitest";
import { parseTurnQuery, toTurnFilters, turnQueryString } from "./filters";

describe("parseTurnQuery", () => {
  it("drops the empty fields a submitted form leaves, silently", () => {
    expect(parseTurnQuery({ session: "", from: "  ", min: "0.5", principle: "" })).toEqual({
      query: { min: 0.5 },
      problems: [],
    });
  });

  it.each([
    [{ min: "2" }, "min"],
    [{ from: "yesterday" }, "from"],
    [{ principle: "kindness" }, "principle"],
    [{ below: "-1" }, "below"],
  ])("drops and reports the invalid field of %j", (params, field) => {
    const { query, problems } = parseTurnQuery({ ...params, session: "s-1" });
    expect(query).toEqual({ session: "s-1" });
    expect(problems.map((p) => p.field)).toEqual([field]);
  });

  it("takes the first of repeated params and ignores a cursor", () => {
    expect(parseTurnQuery({ session: ["a", "b"], cursor: "abc" }).query).toEqual({ session: "a" });
  });
});

describe("turnQueryString", () => {
  it("round-trips through parseTurnQuery", () => {
    const query = {
      session: "s 1",
      from: "2025-01-01",
      to: "2025-01-31",
      min: 0.2,
      max: 0.9,
      principle: "ethical" as const,
      below: 0.6,
    };
    const text = turnQueryString(query);
    expect(parseTurnQuery(Object.fromEntries(new URLSearchParams(text))).query).toEqual(query);
  });

  it("appends the cursor when given", () => {
    expect(turnQueryString({ min: 0.5 }, "xyz")).toBe("min=0.5&cursor=xyz");
    expect(turnQueryString({})).toBe("");
  });
});

describe("toTurnFilters", () => {
  it("makes `to` inclusive of its whole UTC day", () => {
    const f = toTurnFilters({ from: "2025-01-01", to: "2025-01-31" });
    expect(f.from?.toISOString()).toBe("2025-01-01T00:00:00.000Z");
    expect(f.to?.toISOString()).toBe("2025-02-01T00:00:00.000Z");
  });

  it("maps the URL names to the repository's", () => {
    expect(
      toTurnFilters({ session: "s", min: 0.1, max: 0.2, principle: "curated", below: 0.5 }),
    ).toMatchObject({
      sessionId: "s",
      minTotal: 0.1,
      maxTotal: 0.2,
      principle: "curated",
      below: 0.5,
    });
  });
});
