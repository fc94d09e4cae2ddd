import { describe, expect, it } from "vitest";
import { FOLD_CHARS, FOLD_LINES, isLong, toolValueView } from "./tool-value";

describe("toolValueView", () => {
  it.each([
    [null, { kind: "empty" }],
    [undefined, { kind: "empty" }],
    ["", { kind: "empty" }],
    ["2 passed, 1 failed", { kind: "text", text: "2 passed, 1 failed" }],
    ["{not json", { kind: "text", text: "{not json" }],
    [[1, 2], { kind: "json", text: "[\n  1,\n  2\n]" }],
    [{}, { kind: "json", text: "{}" }],
  ])("shows %j as %j", (value, view) => {
    expect(toolValueView(value)).toEqual(view);
  });

  it("gives an object one row per key: strings as they are, other values pretty-printed", () => {
    expect(
      toolValueView({ command: "npm test\n-- --watch", timeout: 120, opts: { cwd: "/x" } }),
    ).toEqual({
      kind: "rows",
      rows: [
        { key: "command", text: "npm test\n-- --watch", json: false },
        { key: "timeout", text: "120", json: false },
        { key: "opts", text: '{\n  "cwd": "/x"\n}', json: true },
      ],
    });
  });

  it("reads an output that is JSON text as that JSON", () => {
    expect(toolValueView('{"stdout":"ok","exit_code":0}')).toEqual({
      kind: "rows",
      rows: [
        { key: "stdout", text: "ok", json: false },
        { key: "exit_code", text: "0", json: false },
      ],
    });
  });
});

describe("isLong", () => {
  it.each([
    ["a".repeat(FOLD_CHARS), false],
    ["a".repeat(FOLD_CHARS + 1), true],
    [Array.from({ length: FOLD_LINES }, () => "x").join("\n"), false],
    [Array.from({ length: FOLD_LINES + 1 }, () => "x").join("\n"), true],
  ])("%#: %j is long: %s", (text, long) => {
    expect(isLong(text)).toBe(long);
  });
});
