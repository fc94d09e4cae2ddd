import { describe, expect, it } from "vitest";
import { JsonTokenCounter } from "./limits";

const count = (...chunks: string[]) => {
  const counter = new JsonTokenCounter();
  for (const chunk of chunks) counter.add(new TextEncoder().encode(chunk));
  return counter.count;
};

describe("JsonTokenCounter", () => {
  it.each([
    ["0", 0],
    ["[]", 1],
    ["[0,0,0]", 3],
    ['{"a":1,"b":[2,3]}', 6],
    ['{"a,b:[{":"]}"}', 2],
    ['["\\"", ",", "\\\\", ","]', 4],
    ['"\\u005b,"', 0],
    ["not json, at all: [", 3],
  ])("counts %s as %i", (json, expected) => {
    expect(count(json)).toBe(expected);
  });

  it("counts the same however the text is split into chunks", () => {
    const json = JSON.stringify({ a: ['x\\",[', { "k\\": ["\\\\", 1, 2] }], b: '"{"' });
    const whole = count(json);
    for (let at = 0; at <= json.length; at++)
      expect(count(json.slice(0, at), json.slice(at))).toBe(whole);
    expect(count(...json.split(""))).toBe(whole);
  });
});
