import { describe, expect, it } from "vitest";
import { createTwoFilesPatch } from "diff";
import {
  boundedDiffs,
  DIFF_TIME_BUDGET_MS,
  MAX_DIFF_LINE_CHARS,
  MAX_DIFF_LINES,
  MAX_DIFF_LINES_PER_FILE,
} from "./diff-limits";
import { MAX_FILE_BYTES } from "./limits";

/** The unbounded diff, file by file, that boundedDiffs must agree with on small changes (the `diff` package's own patch). */
function fullPatches(
  before: readonly { path: string; text: string }[],
  after: readonly { path: string; text: string }[],
): { patch: string }[] {
  const a = new Map(before.map((f) => [f.path, f.text]));
  const b = new Map(after.map((f) => [f.path, f.text]));
  return [...new Set([...a.keys(), ...b.keys()])].sort().map((path) => ({
    patch: createTwoFilesPatch(
      `a/${path}`,
      `b/${path}`,
      a.get(path) ?? "",
      b.get(path) ?? "",
      "",
      "",
      {
        context: 3,
      },
    ),
  }));
}

const lines = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => `  - line ${i} ${tag}`).join("\n") + "\n";

describe("boundedDiffs", () => {
  it("shows a small change as the unbounded diff does, patch line for patch line", () => {
    const before = [
      { path: "core.yaml", text: "a: 1\nb: 2\nc: 3\n" },
      { path: "overlays/legal.yaml", text: "x: 1\n" },
    ];
    const after = [
      { path: "core.yaml", text: "a: 1\nb: 20\nc: 3\n" },
      { path: "overlays/medical.yaml", text: "y: 1\n" },
    ];
    const full = fullPatches(before, after);
    const bounded = boundedDiffs(before, after);
    expect(
      bounded.map((d) => [d.path, d.status, d.additions, d.deletions, d.hidden, d.skipped]),
    ).toEqual([
      ["core.yaml", "changed", 1, 1, 0, null],
      ["overlays/legal.yaml", "removed", 0, 1, 0, null],
      ["overlays/medical.yaml", "added", 1, 0, 0, null],
    ]);
    bounded.forEach((d, i) => {
      const patchLines = full[i]!.patch.split("\n").filter(
        (l) => l !== "" && !l.startsWith("====") && !l.startsWith("Index:"),
      );
      expect(d.shown).toEqual(patchLines.map((l) => l.replace(/\t$/, "")));
    });
  });

  it("reports the sizes of both sides", () => {
    const [d] = boundedDiffs(
      [{ path: "core.yaml", text: "a\nb\n" }],
      [{ path: "core.yaml", text: "a\nb\nc" }],
    );
    expect([d!.before, d!.after]).toEqual([
      { bytes: 4, lines: 2 },
      { bytes: 5, lines: 3 },
    ]);
  });

  it(`shows at most ${MAX_DIFF_LINES_PER_FILE} patch lines of a file and counts the rest`, () => {
    const [d] = boundedDiffs(
      [],
      [{ path: "eval/big.yaml", text: lines(MAX_DIFF_LINES_PER_FILE * 2, "new") }],
    );
    const patchLines = 2 + 1 + MAX_DIFF_LINES_PER_FILE * 2;
    expect([d!.shown.length, d!.hidden, d!.additions]).toEqual([
      MAX_DIFF_LINES_PER_FILE,
      patchLines - MAX_DIFF_LINES_PER_FILE,
      MAX_DIFF_LINES_PER_FILE * 2,
    ]);
  });

  it(`shows at most ${MAX_DIFF_LINES} patch lines across files`, () => {
    const files = Array.from(
      { length: Math.ceil(MAX_DIFF_LINES / MAX_DIFF_LINES_PER_FILE) + 2 },
      (_, i) => ({ path: `eval/f${i}.yaml`, text: lines(MAX_DIFF_LINES_PER_FILE, `f${i}`) }),
    );
    const diffs = boundedDiffs([], files);
    expect(diffs.reduce((n, d) => n + d.shown.length, 0)).toBe(MAX_DIFF_LINES);
    expect(diffs.at(-1)).toMatchObject({ shown: [], additions: MAX_DIFF_LINES_PER_FILE });
    expect(diffs.at(-1)!.hidden).toBeGreaterThan(0);
  });

  it(`cuts a line longer than ${MAX_DIFF_LINE_CHARS} characters`, () => {
    const [d] = boundedDiffs(
      [],
      [{ path: "core.yaml", text: `title: ${"x".repeat(MAX_DIFF_LINE_CHARS * 10)}\n` }],
    );
    const added = d!.shown.find((l) => l.startsWith("+title"));
    expect(added).toHaveLength(MAX_DIFF_LINE_CHARS + 1);
    expect(added!.endsWith("…")).toBe(true);
  });

  it(`does not diff a file over ${MAX_FILE_BYTES} bytes on either side`, () => {
    const huge = `# ${"x".repeat(MAX_FILE_BYTES)}\n`;
    const [d] = boundedDiffs(
      [{ path: "overlays/huge.yaml", text: "a: 1\n" }],
      [{ path: "overlays/huge.yaml", text: huge }],
    );
    expect(d).toMatchObject({
      status: "changed",
      skipped: "too_large",
      shown: [],
      hidden: 0,
      additions: null,
      deletions: null,
      after: { bytes: MAX_FILE_BYTES + 3, lines: 1 },
    });
  });

  it("gives up on a file rewritten from end to end, saying so", () => {
    const [d] = boundedDiffs(
      [{ path: "eval/x.yaml", text: lines(8000, "old") }],
      [{ path: "eval/x.yaml", text: lines(8000, "new") }],
    );
    expect(d).toMatchObject({ status: "changed", skipped: "too_slow", shown: [], additions: null });
  });

  it(`stops diffing after ${DIFF_TIME_BUDGET_MS} ms in all: the files left are not compared`, () => {
    let clock = 0;
    const now = () => (clock += DIFF_TIME_BUDGET_MS / 2);
    const diffs = boundedDiffs(
      [],
      ["a", "b", "c"].map((n) => ({ path: `eval/${n}.yaml`, text: "x: 1\n" })),
      now,
    );
    expect(diffs.map((d) => d.skipped)).toEqual([null, "too_slow", "too_slow"]);
  });

  it("says nothing of unchanged files", () => {
    expect(
      boundedDiffs([{ path: "core.yaml", text: "a" }], [{ path: "core.yaml", text: "a" }]),
    ).toEqual([
      {
        path: "core.yaml",
        status: "unchanged",
        before: { bytes: 1, lines: 1 },
        after: { bytes: 1, lines: 1 },
        additions: 0,
        deletions: 0,
        shown: [],
        hidden: 0,
        skipped: null,
      },
    ]);
  });
});
