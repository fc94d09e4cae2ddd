import { describe, expect, it } from "vitest";
import { z } from "zod";
import { inJson, inspectJson, isStorableText, MAX_JSON_DEPTH, normalizeText } from "./text";

describe("normalizeText", () => {
  it.each([
    ["plain", "plain"],
    ["a\u0000b", "a\uFFFDb"],
    ["\u0000\u0000", "\uFFFD\uFFFD"],
    ["\ud800", "\uFFFD"],
    ["\udfff", "\uFFFD"],
    ["x\ud83d", "x\uFFFD"],
    ["\ud83d\ud83d", "\uFFFD\uFFFD"],
    ["\udc00\ud800", "\uFFFD\uFFFD"],
    ["😀", "😀"],
    ["\ud83d\ude00\u0000", "😀\uFFFD"],
    ["\u0001\u007f\uFFFE", "\u0001\u007f\uFFFE"],
  ])("%j becomes %j, keeping its length", (input, output) => {
    expect(normalizeText(input)).toBe(output);
    expect(normalizeText(input)).toHaveLength(input.length);
    expect(isStorableText(output)).toBe(true);
  });
});

const nested = (depth: number): unknown => {
  let value: unknown = 0;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

describe("inJson", () => {
  const schema = z.object({ v: inJson() });

  it.each([
    [0, 0],
    [1, 1],
    [MAX_JSON_DEPTH, MAX_JSON_DEPTH],
  ])("measures a value nested %i deep as %i", (depth, measured) => {
    expect(inspectJson(nested(depth), MAX_JSON_DEPTH).depth).toBe(measured);
  });

  it("measures 100,000 levels without overflowing the stack, stopping past the limit", () => {
    expect(inspectJson(nested(100_000), MAX_JSON_DEPTH).depth).toBe(MAX_JSON_DEPTH + 1);
    expect(schema.safeParse({ v: nested(100_000) }).error?.issues).toEqual([
      { code: "custom", path: ["v"], message: "nested deeper than 64 levels" },
    ]);
  });

  it("normalizes every string and key, and keeps __proto__ a plain key", () => {
    const input = JSON.parse(
      '{"k\\u0000":["\\ud800",{"__proto__":{"x":"\\u0000"}}],"n":1,"b":true,"z":null}',
    ) as unknown;
    const output = schema.parse({ v: input }).v as Record<string, unknown>;
    expect(output).toEqual(
      JSON.parse('{"k\\ufffd":["\\ufffd",{"__proto__":{"x":"\\ufffd"}}],"n":1,"b":true,"z":null}'),
    );
    expect(Object.getPrototypeOf((output["k\uFFFD"] as unknown[])[1])).toBe(Object.prototype);
    expect(Object.keys((output["k\uFFFD"] as unknown[])[1] as object)).toEqual(["__proto__"]);
  });

  it("returns the same object when nothing needs normalizing", () => {
    const input = { a: ["b", { c: 1 }] };
    expect(schema.parse({ v: input }).v).toBe(input);
  });
});
