import { describe, expect, it } from "vitest";
import { routeParam } from "./route-param";

describe("routeParam", () => {
  it.each([
    ["sp%20ace", "sp ace"],
    ["lt%3Cx", "lt<x"],
    ["eq%3Dx", "eq=x"],
    ["pct%25x", "pct%x"],
    ["sl%2Fx", "sl/x"],
    ["q%3Fx", "q?x"],
    ["h%23x", "h#x"],
    ["pl%2Bx", "pl+x"],
    ["amp%26x", "amp&x"],
    ["dq%22x", 'dq"x'],
    ["%C3%A9-x", "é-x"],
    ["plain-1", "plain-1"],
    // Decoded once only: an id that itself holds "%2F" arrives as "%252F".
    ["a%252Fb", "a%2Fb"],
  ])("%s is the id %s", (segment, id) => {
    expect(routeParam(segment)).toBe(id);
  });

  it("keeps a segment that is not UTF-8 as it came", () => {
    expect(routeParam("%ED%A0%80")).toBe("%ED%A0%80");
  });
});
