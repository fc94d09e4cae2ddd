import { describe, expect, it } from "vitest";
import { z } from "zod";
import { JSON_REPLY_PARSERS, MAX_REASON_LENGTH, parseJsonObject, parseWith } from "./json-reply";

const [JSON_PARSER, FENCED, BALANCED] = JSON_REPLY_PARSERS;

describe("parseJsonObject", () => {
  it.each([
    ["plain JSON", '{"domains": ["billing"]}', JSON_PARSER, { domains: ["billing"] }, []],
    ["surrounding whitespace", '\n\t  {"a": 1}  \n', JSON_PARSER, { a: 1 }, []],
    [
      "a ```json fence",
      'Here:\n```json\n{"a": {"b": 2}}\n```\nDone.',
      FENCED,
      { a: { b: 2 } },
      [JSON_PARSER],
    ],
    ["a bare ``` fence", '```\n{"a": true}\n```', FENCED, { a: true }, [JSON_PARSER]],
    [
      "a reply wrapped in prose",
      'Sure! Here you go: {"domains": ["a", "b"]} Hope this helps',
      BALANCED,
      { domains: ["a", "b"] },
      [JSON_PARSER, FENCED],
    ],
    [
      "braces inside strings",
      'Result: {"rule": "use {name} and }", "n": {"m": 1}} end',
      BALANCED,
      { rule: "use {name} and }", n: { m: 1 } },
      [JSON_PARSER, FENCED],
    ],
    [
      "escaped quotes",
      'Ok {"quote": "she said \\"{hi}\\"", "x": 1}.',
      BALANCED,
      { quote: 'she said "{hi}"', x: 1 },
      [JSON_PARSER, FENCED],
    ],
    [
      "a non-JSON brace pair before the object",
      'Fill {placeholder} like {"a": 1}',
      BALANCED,
      { a: 1 },
      [JSON_PARSER, FENCED],
    ],
  ])("reads %s", (_label, text, parser, value, failed) => {
    const result = parseJsonObject(text);
    expect(result).toEqual({
      ok: true,
      value,
      contract: {
        parser,
        failures: failed.map((p) => ({ parser: p, reason: expect.any(String) })),
      },
    });
  });

  it.each([
    ["an array", '[{"a": 1}]', /not an object but an array/],
    ["a fenced array", '```json\n[{"a": 1}]\n```', /./],
    ["a scalar", "42", /not an object but a number/],
    ["garbage", "I cannot help with that.", /./],
    ["an empty string", "", /./],
    ["unbalanced braces", '{"a": {"b": 1}', /./],
  ])("rejects %s with all three failures", (_label, text, jsonReason) => {
    const result = parseJsonObject(text);
    expect(result.ok).toBe(false);
    expect(result.contract.parser).toBeNull();
    expect(result.contract.failures.map((f) => f.parser)).toEqual([...JSON_REPLY_PARSERS]);
    expect(result.contract.failures[0]?.reason).toMatch(jsonReason);
    expect(
      result.contract.failures.every(
        (f) => f.reason.length > 0 && f.reason.length <= MAX_REASON_LENGTH,
      ),
    ).toBe(true);
  });

  it("records why each fallback failed", () => {
    const { contract } = parseJsonObject("no json here");
    expect(contract.failures[1]).toEqual({ parser: FENCED, reason: "no fenced block" });
    expect(contract.failures[2]).toEqual({ parser: BALANCED, reason: "no '{' in the reply" });
  });

  it("does not mine an array for its first object", () => {
    expect(parseJsonObject('[{"a": 1}, {"a": 2}]').contract.failures[2]).toEqual({
      parser: BALANCED,
      reason: "the reply is JSON but not an object",
    });
  });
});

describe("parseWith", () => {
  const domainsSchema = z.object({
    domains: z.array(z.string()),
    confidence: z.number().min(0).max(1),
  });

  it("returns the validated value and the extracting parser", () => {
    const result = parseWith('Sure: {"domains": ["billing"], "confidence": 0.8}', domainsSchema);
    expect(result).toEqual({
      ok: true,
      value: { domains: ["billing"], confidence: 0.8 },
      contract: { parser: BALANCED, failures: expect.any(Array) },
    });
  });

  it("records a schema mismatch as a 'schema' failure after the parser that extracted the object", () => {
    const result = parseWith('{"domains": "billing", "confidence": 2}', domainsSchema);
    expect(result.ok).toBe(false);
    expect(result.contract.parser).toBe(JSON_PARSER);
    expect(result.contract.failures).toEqual([
      { parser: "schema", reason: expect.stringMatching(/^domains: .*; confidence: /) },
    ]);
  });

  it("passes on parse failures untouched", () => {
    const result = parseWith("nothing", domainsSchema);
    expect(result).toEqual(parseJsonObject("nothing"));
  });
});
