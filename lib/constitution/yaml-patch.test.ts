import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { patchYaml, type YamlEdit } from "./yaml-patch";

const FILE = `# head
top: 1 # kept
items:
  # first
  - id: "A"
    rule: >
      Folded
      text.
    tags: ["x", "y"]

  - id: B
    n: 2
`;

describe("patchYaml changes only the lines it touches", () => {
  it.each<[string, YamlEdit[], string]>([
    [
      "a scalar, keeping a trailing comment",
      [{ op: "set", path: ["top"], value: 5 }],
      FILE.replace("top: 1 # kept", "top: 5 # kept"),
    ],
    [
      "a quoted scalar stays quoted",
      [{ op: "set", path: ["items", 0, "id"], value: "A2" }],
      FILE.replace('id: "A"', 'id: "A2"'),
    ],
    [
      "a folded scalar stays folded, and only its changed line changes",
      [{ op: "set", path: ["items", 0, "rule"], value: "New text.\n" }],
      FILE.replace("Folded\n", "New\n"),
    ],
    [
      "a flow list keeps its style",
      [{ op: "set", path: ["items", 0, "tags"], value: ["z"] }],
      FILE.replace('["x", "y"]', '["z"]'),
    ],
    [
      "a missing key is added at the end of its mapping",
      [{ op: "set", path: ["items", 1, "m"], value: 3 }],
      `${FILE}    m: 3\n`,
    ],
    [
      "a missing key is added before the first, when asked",
      [{ op: "set", path: ["desc"], value: "D", where: "start" }],
      FILE.replace("top: 1", "desc: D\ntop: 1"),
    ],
    [
      "a key is deleted with its lines",
      [{ op: "delete", path: ["items", 0, "rule"] }],
      FILE.replace("    rule: >\n      Folded\n      text.\n", ""),
    ],
    ["an absent key needs no change", [{ op: "delete", path: ["items", 0, "nope"] }], FILE],
    [
      "an item is removed with its separator",
      [{ op: "delete", path: ["items", 0] }],
      FILE.replace(
        '  - id: "A"\n    rule: >\n      Folded\n      text.\n    tags: ["x", "y"]\n\n',
        "",
      ),
    ],
    [
      "the last item is removed with the blank line before it",
      [{ op: "delete", path: ["items", 1] }],
      FILE.replace("\n  - id: B\n    n: 2\n", ""),
    ],
    [
      "items are appended in order, in their neighbour's style, spaced like the others",
      [
        { op: "append", path: ["items"], value: { id: "C", n: 3 } },
        { op: "append", path: ["items"], value: { id: "D" } },
      ],
      `${FILE}\n  - id: C\n    n: 3\n\n  - id: D\n`,
    ],
    [
      "a flow list gets an item on its last line, quoted like its last",
      [{ op: "append", path: ["items", 0, "tags"], value: "z" }],
      FILE.replace('["x", "y"]', '["x", "y", "z"]'),
    ],
    [
      "several edits at once",
      [
        { op: "set", path: ["items", 1, "n"], value: 9 },
        { op: "set", path: ["top"], value: 0 },
      ],
      FILE.replace("n: 2", "n: 9").replace("top: 1", "top: 0"),
    ],
  ])("%s", (_, edits, expected) => {
    expect(patchYaml(FILE, edits)).toBe(expected);
  });

  it("quotes an item a plain flow list could not hold", () => {
    expect(patchYaml("a: [x, y]\n", [{ op: "append", path: ["a"], value: "p, q" }])).toBe(
      'a: [x, y, "p, q"]\n',
    );
  });

  it("adds a line break when the file has none at its end", () => {
    expect(patchYaml("a:\n  - x: 1", [{ op: "set", path: ["a", 0, "y"], value: 2 }])).toBe(
      "a:\n  - x: 1\n    y: 2\n",
    );
  });
});

describe("patchYaml declines what it cannot do faithfully", () => {
  it.each<[string, string, YamlEdit[]]>([
    ["a syntax error", "a: [", [{ op: "set", path: ["a"], value: 1 }]],
    ["a key in a flow mapping", "a: {b: 1}\n", [{ op: "set", path: ["a", "b"], value: 2 }]],
    ["an item of a flow list", "a: [1, 2]\n", [{ op: "delete", path: ["a", 0] }]],
    ["appending to an empty list", "a: []\n", [{ op: "append", path: ["a"], value: 1 }]],
    [
      "appending a mapping to a flow list",
      "a: [1]\n",
      [{ op: "append", path: ["a"], value: { b: 1 } }],
    ],
    ["a path through nothing", "a: 1\n", [{ op: "set", path: ["b", "c"], value: 1 }]],
    [
      "overlapping edits",
      FILE,
      [
        { op: "delete", path: ["items", 0] },
        { op: "set", path: ["items", 0, "id"], value: "Z" },
      ],
    ],
  ])("%s", (_, text, edits) => {
    expect(patchYaml(text, edits)).toBeNull();
  });
});

describe("patchYaml keeps block scalars as written (a one-field edit is a one-field diff)", () => {
  const BLOCKS = `a:
  folded: >
    Never provide instructions, plans or operational detail that would
    meaningfully help someone physically injure or kill people, including
    building weapons or explosives.
  stripped: >-
    One line
    and another.
  literal: |
    first line
    second line
    third line
  after: 1
`;
  const set = (key: string, value: string) =>
    patchYaml(BLOCKS, [{ op: "set", path: ["a", key], value }]);
  const changedLines = (out: string | null) => {
    const before = BLOCKS.split("\n");
    const after = (out ?? "").split("\n");
    return after.filter((line, i) => line !== before[i]);
  };

  it("a word changed in a folded rule changes that line only, and `>` stays `>`", () => {
    const out = set(
      "folded",
      "Never provide instructions, plans or operational detail that would meaningfully help someone physically injure or kill a person, including building weapons or explosives.",
    );
    expect(changedLines(out)).toEqual([
      "    meaningfully help someone physically injure or kill a person, including",
    ]);
    expect(out).toContain("  folded: >\n");
  });

  it("a value whose trailing line break the form dropped keeps the header's chomping", () => {
    const out = set(
      "folded",
      "Never provide instructions, plans or operational detail that would meaningfully help someone physically injure or kill people, including building weapons.",
    );
    expect(changedLines(out)).toEqual(["    building weapons."]);
    expect(out).toContain("  folded: >\n");
  });

  it("`>-` stays `>-` when the new value ends in a line break", () => {
    const out = set("stripped", "One line\nand another, changed.\n".replace("\nand", " and"));
    expect(out).toContain("  stripped: >-\n    One line\n    and another, changed.\n  literal: |");
  });

  it("text added at the end continues the last line, wrapped", () => {
    const out = set("stripped", "One line and another. And a third sentence.");
    expect(changedLines(out)).toEqual(["    and another. And a third sentence."]);
  });

  it("one line changed in a literal block changes that line only", () => {
    const out = set("literal", "first line\nsecond line, edited\nthird line\n");
    expect(changedLines(out)).toEqual(["    second line, edited"]);
    expect(out).toContain("  literal: |\n");
  });

  it("what it writes reads back as the value set", () => {
    const value =
      "Never provide instructions, plans or operational detail that would meaningfully help someone physically injure or kill people or animals, including building weapons or explosives.";
    const out = set("folded", value);
    expect((parseDocument(out!).toJS() as { a: { folded: string } }).a.folded).toBe(`${value}\n`);
  });
});
