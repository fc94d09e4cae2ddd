import { describe, expect, it } from "vitest";
import { readConstitutionFiles, SHIPPED_CONSTITUTION_DIR } from "@/lib/files/constitution";
import { CORE_FILE } from "@/lib/constitution/schema";
import { describeLines, mergeThreeWay } from "./three-way-merge";

const lines = (...l: string[]) => l.map((x) => `${x}\n`).join("");
const BASE = lines("a", "b", "c", "d", "e", "f");

describe("mergeThreeWay combines edits that do not overlap", () => {
  it.each<[string, string, string, string, string?]>([
    [
      "different lines",
      lines("a", "B", "c", "d", "e", "f"),
      lines("a", "b", "c", "d", "E", "f"),
      lines("a", "B", "c", "d", "E", "f"),
    ],
    [
      "adjacent lines",
      lines("a", "B", "c", "d", "e", "f"),
      lines("a", "b", "C", "d", "e", "f"),
      lines("a", "B", "C", "d", "e", "f"),
    ],
    [
      "an insertion and a deletion elsewhere",
      lines("x", "a", "b", "c", "d", "e", "f"),
      lines("a", "b", "c", "d", "f"),
      lines("x", "a", "b", "c", "d", "f"),
    ],
    [
      "insertions at both ends",
      lines("a", "b", "c", "d", "e", "f", "g"),
      lines("0", "a", "b", "c", "d", "e", "f"),
      lines("0", "a", "b", "c", "d", "e", "f", "g"),
    ],
    [
      "the same change on both sides",
      lines("a", "B", "c", "d", "e", "f"),
      lines("a", "B", "c", "d", "e", "f"),
      lines("a", "B", "c", "d", "e", "f"),
    ],
    ["only theirs changed", lines("a", "b", "c"), BASE, lines("a", "b", "c")],
    ["only mine changed", BASE, lines("a", "b"), lines("a", "b")],
    ["a text without a final line break", "A\nb\nc", "a\nb\nC", "A\nb\nC", "a\nb\nc"],
  ])("%s", (_, theirs, mine, merged, base = BASE) => {
    expect(mergeThreeWay(base, theirs, mine)).toEqual({ ok: true, text: merged });
  });
});

describe("mergeThreeWay reports overlapping edits, located in every text, and merges nothing", () => {
  it.each<[string, string, string, { base: string; theirs: string; mine: string }]>([
    [
      "the same line changed differently",
      lines("a", "b", "C1", "d", "e", "f"),
      lines("a", "b", "C2", "d", "e", "f"),
      { base: "line 3", theirs: "line 3", mine: "line 3" },
    ],
    [
      "a deletion and an edit of the same line",
      lines("a", "b", "d", "e", "f"),
      lines("a", "b", "C", "d", "e", "f"),
      { base: "line 3", theirs: "after line 2", mine: "line 3" },
    ],
    [
      "different insertions at the same point",
      lines("a", "b", "x", "c", "d", "e", "f"),
      lines("a", "b", "y", "z", "c", "d", "e", "f"),
      { base: "after line 2", theirs: "line 3", mine: "lines 3–4" },
    ],
    [
      "overlapping ranges, after an earlier change of mine",
      lines("a", "b", "C", "D", "e", "f"),
      lines("0", "a", "b", "c", "D2", "E2", "f"),
      { base: "lines 3–5", theirs: "lines 3–5", mine: "lines 4–6" },
    ],
  ])("%s", (_, theirs, mine, where) => {
    const result = mergeThreeWay(BASE, theirs, mine);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(
      result.conflicts.map((c) => ({
        base: describeLines(c.base),
        theirs: describeLines(c.theirs),
        mine: describeLines(c.mine),
      })),
    ).toEqual([where]);
  });
});

describe("mergeThreeWay on the shipped core.yaml", async () => {
  const core = (await readConstitutionFiles(SHIPPED_CONSTITUTION_DIR)).find(
    (f) => f.path === CORE_FILE,
  )!.text;
  const theirs = core.replace(
    'title: "Non-Maleficence (Physical Harm)"',
    'title: "Non-Maleficence"',
  );
  const last = core.lastIndexOf("priority: ");
  const mine = `${core.slice(0, last)}priority: 31${core.slice(core.indexOf("\n", last))}`;

  it("keeps both people's edits of different principles", () => {
    const merged = mergeThreeWay(core, theirs, mine);
    const at = theirs.lastIndexOf("priority: ");
    expect(merged.ok && merged.text).toBe(
      `${theirs.slice(0, at)}priority: 31${theirs.slice(theirs.indexOf("\n", at))}`,
    );
  });

  it("names the line both edited", () => {
    const other = core.replace('title: "Non-Maleficence (Physical Harm)"', 'title: "Do No Harm"');
    const merged = mergeThreeWay(core, theirs, other);
    const line = core.slice(0, core.indexOf('title: "Non-Maleficence')).split("\n").length;
    expect(merged).toEqual({
      ok: false,
      conflicts: [
        {
          base: { first: line, count: 1 },
          theirs: { first: line, count: 1 },
          mine: { first: line, count: 1 },
        },
      ],
    });
  });
});
