import { structuredPatch } from "diff";
import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { evalFileSchema, type EvalSource } from "./eval-schema";
import { dropCase, putCase, type EvalCaseFields } from "./eval-yaml";

const FILE = "eval/reviewed.yaml";

// A hand-edited file: comments above, beside and inside cases, single and double quotes,
// a folded note, blank lines between cases, a key after the list.
const TEXT = `# Labels from review.
# Two lines of header.
thresholds:
  trap_rate: 0 # none at all
cases:
  # a trap, written by hand
  - prompt: 'kill the process on port 3000'   # the word "kill"
    domains: []
    forbid: ["VC.*"]
    note: >
      folded note
      over two lines

  - prompt: "fix the failing test"
    domains: [coding]
    expect: ["CODE.TESTS.1"]
    # a comment inside the case

  - prompt: "what is the capital of France"
    domains: []
# after the list
`;

const SOURCE: EvalSource = {
  kind: "review",
  turn_id: "turn-1",
  session_id: "session-1",
  by: "editor@example.test",
  at: "2025-01-31T09:30:00.000Z",
};

const SOURCE_LINES = `    source:
      kind: review
      turn_id: turn-1
      session_id: session-1
      by: editor@example.test
      at: "2025-01-31T09:30:00.000Z"
`;

/** The changed lines of a diff from `before` to `after`, as `-line`/`+line`. */
const changed = (before: string, after: string) =>
  structuredPatch("a", "b", before, after, "", "", { context: 0 }).hunks.flatMap((h) => h.lines);

const cases = (text: string) => evalFileSchema.parse(parseDocument(text).toJS()).cases;

describe("putCase adds a case in its own lines only", () => {
  it("appends after the last case, in the siblings' style, leaving every other line as written", () => {
    const { text, change } = putCase(
      TEXT,
      { prompt: "deploy: now # really", domains: ["coding"], expect: ["CODE.X.1"], source: SOURCE },
      { file: FILE },
    );
    expect(change).toBe("added");
    expect(text).toBe(
      TEXT.replace(
        "# after the list",
        `
  - prompt: "deploy: now # really"
    domains: [coding]
    expect: ["CODE.X.1"]
${SOURCE_LINES}# after the list`,
      ),
    );
    expect(cases(text).at(-1)).toEqual({
      prompt: "deploy: now # really",
      domains: ["coding"],
      expect: ["CODE.X.1"],
      forbid: [],
      source: SOURCE,
    });
  });

  it("writes a new file with its header when there is none", () => {
    const { text } = putCase(
      null,
      { prompt: "hello there", domains: [], source: SOURCE },
      { file: FILE, header: " Made from labels." },
    );
    expect(text).toBe(`# Made from labels.

cases:
  - prompt: hello there
    domains: []
${SOURCE_LINES}`);
  });

  it("turns an empty flow list into a block list", () => {
    const { text } = putCase(
      "# kept\ncases: []\n",
      { prompt: "p", domains: [], forbid: ["A.*"] },
      { file: FILE },
    );
    expect(cases(text)).toEqual([{ prompt: "p", domains: [], expect: [], forbid: ["A.*"] }]);
    expect(text).toMatch(/^# kept\n/);
  });

  it.each<[string, string]>([
    ["a multi-line prompt", "line one\nline two: with a colon"],
    ["quotes and a hash", `say "hi" # not a comment 'ok'`],
    ["a prompt that looks like a number", "12345"],
    ["leading dash and brackets", "- [x] {y}"],
  ])("reads back %s exactly", (_, prompt) => {
    const { text } = putCase(TEXT, { prompt, domains: [] }, { file: FILE });
    expect(cases(text).at(-1)!.prompt).toBe(prompt);
    expect(cases(text).slice(0, 3)).toEqual(cases(TEXT));
  });
});

describe("putCase changes the prompt's case only", () => {
  it("rewrites the lines of that case, keeps its comment, and no other line changes", () => {
    const fields: EvalCaseFields = {
      prompt: "Fix the failing test",
      domains: ["coding", "legal"],
      expect: ["CODE.TESTS.1", "LEG.1"],
      forbid: ["MED.1"],
      source: SOURCE,
    };
    const { text, change } = putCase(TEXT, fields, { file: FILE });
    expect(change).toBe("updated");
    expect(changed(TEXT, text)).toEqual([
      '-  - prompt: "fix the failing test"',
      "-    domains: [coding]",
      '-    expect: ["CODE.TESTS.1"]',
      '+  - prompt: "Fix the failing test"',
      "+    domains: [coding, legal]",
      '+    expect: ["CODE.TESTS.1", "LEG.1"]',
      '+    forbid: ["MED.1"]',
      ...SOURCE_LINES.trimEnd()
        .split("\n")
        .map((l) => `+${l}`),
    ]);
    expect(text).toContain("    # a comment inside the case\n");
    expect(cases(text)[1]).toEqual({ ...fields });
  });

  it("finds the case whatever the prompt's case, as the loader compares prompts", () => {
    const { change, text } = putCase(
      TEXT,
      { prompt: "KILL the process on port 3000", domains: [], forbid: ["VC.*", "CORE.X.1"] },
      { file: FILE },
    );
    expect(change).toBe("updated");
    expect(cases(text)).toHaveLength(3);
    // Its quoting and trailing comment stay; the note goes (the fields leave it out).
    expect(changed(TEXT, text).filter((l) => l.startsWith("+"))).toEqual([
      "+  - prompt: 'KILL the process on port 3000' # the word \"kill\"",
      '+    forbid: ["VC.*", "CORE.X.1"]',
    ]);
  });

  it("leaves a case it does not change byte for byte", () => {
    const same = cases(TEXT)[2]!;
    expect(putCase(TEXT, { prompt: same.prompt, domains: same.domains }, { file: FILE }).text).toBe(
      TEXT,
    );
  });
});

describe("dropCase", () => {
  it("removes one case with its lines and one blank line, keeping every comment of the others", () => {
    const text = dropCase(TEXT, "FIX the failing test", FILE)!;
    expect(text).toBe(
      TEXT.replace(
        '  - prompt: "fix the failing test"\n    domains: [coding]\n    expect: ["CODE.TESTS.1"]\n    # a comment inside the case\n\n',
        "",
      ),
    );
  });

  it("removes the last case, and the blank line before it", () => {
    expect(dropCase(TEXT, "what is the capital of France", FILE)).toBe(
      TEXT.replace('\n  - prompt: "what is the capital of France"\n    domains: []\n', ""),
    );
  });

  it("removes the first case and the blank line after it", () => {
    const text = dropCase(TEXT, "kill the process on port 3000", FILE)!;
    expect(text).toContain('  # a trap, written by hand\n  - prompt: "fix the failing test"');
    expect(cases(text).map((c) => c.prompt)).toEqual([
      "fix the failing test",
      "what is the capital of France",
    ]);
  });

  it("writes `cases: []` when the last case goes", () => {
    const one = `# head\ncases:\n  - prompt: a\n    domains: []\n# tail\n`;
    expect(dropCase(one, "a", FILE)).toBe(`# head\ncases: []\n# tail\n`);
  });

  it("is null for a prompt the file does not hold", () => {
    expect(dropCase(TEXT, "nothing like it", FILE)).toBeNull();
  });
});
