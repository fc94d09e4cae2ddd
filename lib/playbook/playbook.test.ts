import { describe, expect, it } from "vitest";
import { extractionResultSchema } from "./extraction";
import { loadPlaybook } from "./load";
import {
  formatPlaybook,
  PRUNE_HARMFUL_FLOOR,
  savePlaybook,
  shouldPrune,
  trustRatio,
  updatePlaybookData,
} from "./playbook";
import { emptyPlaybook, playbookSchema, type Playbook } from "./schema";
import {
  SEED_EMPTY_PLAYBOOK,
  SEED_FORMAT_EXAMPLE,
  SEED_MIGRATION_TABLE,
  SEED_MIXED_INPUT,
  SEED_MIXED_OUTPUT,
  SEED_LEGACY_FORMATS,
  SEED_PRUNE_TABLE,
} from "@/test/fixtures/seeds/playbook";

describe("playbook migration (docs/spec/playbook.md § Migration contracts)", () => {
  it.each(SEED_MIGRATION_TABLE)(
    "score %i -> helpful %i, harmful %i, score dropped",
    (score, helpful, harmful) => {
      const { playbook } = loadPlaybook(
        JSON.stringify({
          version: "1.0",
          last_updated: null,
          key_points: [{ name: "kpt_005", text: "Avoid global state", score }],
        }),
      );
      expect(playbook.key_points).toEqual([
        { name: "kpt_005", text: "Avoid global state", helpful, harmful },
      ]);
    },
  );

  it("turns the mixed-format example into exactly the seed's output", () => {
    const { playbook, warnings } = loadPlaybook(JSON.stringify(SEED_MIXED_INPUT));
    expect(playbook).toEqual(SEED_MIXED_OUTPUT);
    expect(warnings).toEqual([]);
    expect(playbookSchema.safeParse(playbook).success).toBe(true);
  });

  it.each([
    ["a missing file", null, /no playbook file/],
    ["corrupt JSON", "{not json", /not valid JSON/],
    ["a list at the top", "[1, 2]", /is a list, not a JSON object/],
    ["a number at the top", "7", /is a number, not a JSON object/],
  ])("gives the empty playbook and a warning for %s", (_label, text, warning) => {
    const { playbook, warnings } = loadPlaybook(text);
    expect(playbook).toEqual(SEED_EMPTY_PLAYBOOK);
    expect(playbook).toEqual(emptyPlaybook());
    expect(warnings[0]).toMatch(warning);
  });

  it("keeps names unique: generated names avoid names given later in the file, repeats get new names", () => {
    const { playbook, warnings } = loadPlaybook(
      JSON.stringify({
        key_points: [
          "first",
          { name: "kpt_001", text: "second" },
          { name: "kpt_001", text: "third" },
          { text: "" },
        ],
      }),
    );
    expect(playbook.key_points.map((k) => k.name)).toEqual(["kpt_002", "kpt_001", "kpt_003"]);
    expect(warnings).toEqual([
      "key_points[2] repeats the name kpt_001: given a new one",
      "key_points[3] has no text: skipped",
    ]);
  });
});

describe("legacy formats 1 and 2 (docs/spec/playbook.md § Migration contracts)", () => {
  it.each(Object.entries(SEED_LEGACY_FORMATS))("%s migrates to zero counters", (_format, c) => {
    const { playbook } = loadPlaybook(
      JSON.stringify({ version: "1.0", last_updated: null, key_points: [c.input] }),
    );
    expect(playbook.key_points).toEqual([c.output]);
  });
});

describe("pruning (docs/spec/playbook.md § Pruning contract, decision table)", () => {
  it.each(SEED_PRUNE_TABLE)("helpful %i, harmful %i -> pruned %s", (helpful, harmful, pruned) => {
    expect(shouldPrune({ helpful, harmful })).toBe(pruned);
    const playbook: Playbook = {
      version: "1.0",
      last_updated: null,
      key_points: [{ name: "kpt_001", text: "x", helpful, harmful }],
    };
    expect(
      updatePlaybookData(playbook, { new_key_points: [], evaluations: [] }).playbook.key_points
        .length,
    ).toBe(pruned ? 0 : 1);
  });

  it("never prunes zero-evaluation entries (the floor)", () => {
    expect(PRUNE_HARMFUL_FLOOR).toBe(3);
    expect(shouldPrune({ helpful: 0, harmful: 0 })).toBe(false);
  });
});

describe("updatePlaybookData", () => {
  const base = (): Playbook => ({
    version: "1.0",
    last_updated: null,
    key_points: [
      { name: "kpt_001", text: "a", helpful: 1, harmful: 2 },
      { name: "kpt_002", text: "b", helpful: 0, harmful: 0 },
    ],
  });

  it("adds new points with zero counters, applies ratings, ignores neutral, unknown ratings and names, then prunes", () => {
    const extraction = extractionResultSchema.parse({
      new_key_points: ["Use structured logging instead of print statements"],
      evaluations: [
        { name: "kpt_001", rating: "harmful" },
        { name: "kpt_002", rating: "helpful" },
        { name: "kpt_002", rating: "neutral" },
        { name: "kpt_002", rating: "great" },
        { name: "kpt_999", rating: "harmful" },
      ],
    });
    const result = updatePlaybookData(base(), extraction);
    expect(result.added).toEqual(["kpt_003"]);
    expect(result.pruned.map((k) => k.name)).toEqual(["kpt_001"]);
    expect(result.playbook.key_points).toEqual([
      { name: "kpt_002", text: "b", helpful: 1, harmful: 0 },
      {
        name: "kpt_003",
        text: "Use structured logging instead of print statements",
        helpful: 0,
        harmful: 0,
      },
    ]);
  });

  it("in approval mode keeps entries that meet the rule and returns them as candidates", () => {
    const result = updatePlaybookData(
      base(),
      { new_key_points: [], evaluations: [{ name: "kpt_001", rating: "harmful" }] },
      "approval",
    );
    expect(result.playbook.key_points).toHaveLength(2);
    expect(result.candidates.map((k) => k.name)).toEqual(["kpt_001"]);
  });

  it("never prunes a point added in the same call", () => {
    const result = updatePlaybookData(emptyPlaybook(), {
      new_key_points: ["x"],
      evaluations: [{ name: "kpt_001", rating: "harmful" }],
    });
    expect(result.playbook.key_points).toEqual([
      { name: "kpt_001", text: "x", helpful: 0, harmful: 1 },
    ]);
  });

  it("does not change the playbook it was given", () => {
    const playbook = base();
    updatePlaybookData(playbook, {
      new_key_points: [],
      evaluations: [{ name: "kpt_001", rating: "harmful" }],
    });
    expect(playbook).toEqual(base());
  });
});

describe("format, trust and save", () => {
  it("formats exactly as the seed's example", () => {
    expect(formatPlaybook(SEED_FORMAT_EXAMPLE.entries)).toBe(SEED_FORMAT_EXAMPLE.output);
  });
  it.each([
    [5, 1, 5 / 6],
    [0, 3, 0],
    [0, 0, undefined],
  ])("trust ratio of helpful %i, harmful %i is %s", (helpful, harmful, ratio) => {
    expect(trustRatio({ helpful, harmful })).toBe(ratio);
  });
  it("sets last_updated to an ISO 8601 time on save", () => {
    const saved = savePlaybook(emptyPlaybook(), new Date("2026-02-18T14:30:00Z"));
    expect(saved.last_updated).toBe("2026-02-18T14:30:00.000Z");
  });
  it.each([
    [[], "kpt_001"],
    [["kpt_001", "kpt_003"], "kpt_004"],
    [["kpt_001", "kpt_002"], "kpt_003"],
    [["style-9", "kpt_007"], "kpt_008"],
  ])(
    "names a new point after %j with the highest kpt_NNN seen plus one (%s), never a lower free number",
    (names, expected) => {
      const playbook = {
        ...emptyPlaybook(),
        key_points: names.map((name, i) => ({ name, text: `point ${i}`, helpful: 0, harmful: 0 })),
      };
      const { added } = updatePlaybookData(playbook, {
        new_key_points: ["a new lesson"],
        evaluations: [],
      });
      expect(added).toEqual([expected]);
    },
  );
  it("the schema refuses empty names and text, negative counters and repeated names; keeps other names and fields", () => {
    expect(
      playbookSchema.safeParse({
        version: "1.0",
        last_updated: null,
        key_points: [{ name: "style-1", text: "a", helpful: 0, harmful: 0, section: "x" }],
      }).success,
    ).toBe(true);
    const bad = {
      version: "1.0",
      last_updated: null,
      key_points: [
        { name: "", text: "", helpful: -1, harmful: 0 },
        { name: "kpt_001", text: "a", helpful: 0, harmful: 0 },
        { name: "kpt_001", text: "b", helpful: 0, harmful: 0 },
      ],
    };
    const result = playbookSchema.safeParse(bad);
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.path.join("."))).toEqual([
      "key_points.0.name",
      "key_points.0.text",
      "key_points.0.helpful",
      "key_points.2.name",
    ]);
  });
});
