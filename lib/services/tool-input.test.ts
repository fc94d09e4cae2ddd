import { describe, expect, it } from "vitest";
import { capToolInput, jsonLength } from "./tool-input";

describe("jsonLength: the length of JSON.stringify without writing it", () => {
  const values: [string, unknown][] = [
    ["ASCII", "npm test"],
    ["escapes", 'a "quoted" \\ path\n\ttab\r\b\f'],
    ["control characters", "\u0000\u0001\u000b\u000e\u001f\u007f"],
    ["a surrogate pair", "emoji 😀 here"],
    ["half a pair, high then low alone", "\ud83d x \ude00"],
    ["a high surrogate at the end", "end \ud83d"],
    ["non-ASCII", "café ü 漢字"],
    ["numbers and literals", [0, -1.5, 1e21, 3.14159, true, false, null]],
    ["nested", { a: { b: [1, { c: "d" }, []] }, 'key "quoted"': {}, e: "" }],
    ["an empty object and array", [{}, [], [[]]]],
  ];
  it.each(values)("%s", (_, value) => {
    expect(jsonLength(value)).toBe(JSON.stringify(value).length);
  });

  it("skips undefined members of objects as JSON.stringify does", () => {
    expect(jsonLength({ a: 1, b: undefined, c: 2 })).toBe(13);
  });
});

describe("capToolInput", () => {
  it("keeps an input that fits whole", () => {
    const input = { command: "npm test", description: "run the tests" };
    expect(capToolInput(input)).toBe(input);
  });

  it("keeps the short fields of a large object and says how long it was", () => {
    const content = "y".repeat(50_000);
    const out = capToolInput({ file_path: "big.txt", content }) as Record<string, unknown>;
    expect(out.file_path).toBe("big.txt");
    expect(out._truncated).toBe(50_036);
    expect(String(out.content)).toMatch(/^y{2000}… \[truncated 48000 characters\]$/);
  });

  it("previews a large array as the first 20,000 characters of its JSON", () => {
    const input = Array.from({ length: 5_000 }, (_, i) => ({ line: i, text: `row ${i}` }));
    const out = capToolInput(input) as { _truncated: number; preview: string };
    const text = JSON.stringify(input);
    expect(out._truncated).toBe(text.length);
    expect(out.preview).toBe(text.slice(0, 20_000));
  });

  it("previews a long string as the start of its JSON literal", () => {
    const input = `${"a".repeat(19_998)}😀 and more`;
    const out = capToolInput(input) as { _truncated: number; preview: string };
    expect(out._truncated).toBe(JSON.stringify(input).length);
    // The pair straddles the cut: its first half is replaced (PostgreSQL refuses half a pair).
    expect(out.preview).toBe(`"${"a".repeat(19_998)}\ufffd`);
  });
});
