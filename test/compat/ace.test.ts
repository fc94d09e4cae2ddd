/**
 * Charter against the ACE fork (photoszzt/agentic_context_engineering), the playbook spec.
 *
 * The first part restates the fork's scoring tests (tests/test_scoring_contract.py,
 * 20 tests, and tests/test_scoring_whitebox.py, 77 tests) as Charter cases with inputs
 * and expected values written here; each case names the original test(s) it stands
 * for. The second part pins down where Charter reads the fork's real files and
 * payloads the same way, and where it deliberately differs (see docs/compatibility.md).
 */
import { describe, expect, it } from "vitest";
import {
  emptyPlaybook,
  extractionResultSchema,
  formatPlaybook,
  HIGH_WATER_FIELD,
  loadPlaybook,
  savePlaybook,
  updatePlaybookData,
  type ExtractionResult,
  type Playbook,
  type PlaybookEntry,
} from "@/lib/playbook";

const load = (file: unknown) => loadPlaybook(JSON.stringify(file));
const book = (key_points: PlaybookEntry[], extra: Record<string, unknown> = {}): Playbook => ({
  version: "1.0",
  last_updated: null,
  ...extra,
  key_points,
});
const kp = (name: string, text: string, helpful = 0, harmful = 0): PlaybookEntry => ({
  name,
  text,
  helpful,
  harmful,
});
const extraction = (raw: unknown): ExtractionResult => extractionResultSchema.parse(raw);
const update = (playbook: Playbook, raw: unknown) => updatePlaybookData(playbook, extraction(raw));
/** load -> save -> load, as a file on disk would go. */
const roundTrip = (playbook: Playbook) =>
  loadPlaybook(JSON.stringify(savePlaybook(playbook, new Date("2026-03-01T08:00:00Z")))).playbook;

describe("the ACE fork's scoring tests, restated", () => {
  // test_contract_playbook_entry_schema, test_save_playbook_entry_schema,
  // test_invariant_no_score_field_after_save, test_inv_005_no_score_after_save
  it("saves entries as {name, text, helpful, harmful} with whole counts >= 0, no score, last_updated set", () => {
    const saved = savePlaybook(
      book([kp("kpt_001", "Quote shell variables", 4, 2)]),
      new Date("2026-03-01T08:00:00Z"),
    );
    expect(JSON.parse(JSON.stringify(saved))).toEqual({
      version: "1.0",
      last_updated: "2026-03-01T08:00:00.000Z",
      key_points: [{ name: "kpt_001", text: "Quote shell variables", helpful: 4, harmful: 2 }],
    });
  });

  // test_contract_helpful_increment, test_contract_harmful_increment, test_contract_neutral_no_change,
  // test_update_helpful_rating, test_update_harmful_rating, test_update_neutral_rating, test_update_unknown_rating,
  // test_scn_helpful_rating_increments_counter, test_scn_harmful_rating_increments_counter,
  // test_scn_neutral_rating_changes_nothing, test_scn_unknown_rating_changes_nothing, test_inval_001_unrecognized_rating
  it.each([
    ["helpful", 6, 2],
    ["harmful", 5, 3],
    ["neutral", 5, 2],
    ["excellent", 5, 2],
  ])(
    "a %s rating of helpful 5 / harmful 2 gives helpful %i / harmful %i",
    (rating, helpful, harmful) => {
      const result = update(book([kp("kpt_001", "Quote shell variables", 5, 2)]), {
        new_key_points: [],
        evaluations: [{ name: "kpt_001", rating }],
      });
      expect(result.playbook.key_points).toEqual([
        kp("kpt_001", "Quote shell variables", helpful, harmful),
      ]);
    },
  );

  // test_update_nonexistent_name, test_inval_002_nonexistent_keypoint, test_inval_003_empty_evaluation_name,
  // test_inval_004_missing_rating_key, test_inval_005_missing_name_key
  it.each([
    ["a name not in the playbook", { name: "kpt_404", rating: "helpful" }],
    ["a name that is not kpt_NNN", { name: "missing-one", rating: "helpful" }],
    ["an empty name", { name: "", rating: "helpful" }],
    ["no rating", { name: "kpt_001" }],
    ["no name", { rating: "harmful" }],
  ])("an evaluation with %s changes nothing", (_label, evaluation) => {
    const result = update(book([kp("kpt_001", "Pin dependency versions", 2, 1)]), {
      new_key_points: [],
      evaluations: [evaluation],
    });
    expect(result.playbook.key_points).toEqual([kp("kpt_001", "Pin dependency versions", 2, 1)]);
  });

  // test_contract_format_output_structure, test_format_playbook_with_counts, test_scn_format_includes_counts, test_bound_009_single_entry
  it("formats each entry as [name] helpful=N harmful=N :: text, one per line, in order", () => {
    expect(
      formatPlaybook([
        kp("kpt_010", "Read the error first", 7, 0),
        kp("kpt_011", "Small commits", 0, 4),
      ]),
    ).toBe(
      "[kpt_010] helpful=7 harmful=0 :: Read the error first\n[kpt_011] helpful=0 harmful=4 :: Small commits",
    );
    expect(formatPlaybook([kp("kpt_003", "Only one", 1, 0)])).toBe(
      "[kpt_003] helpful=1 harmful=0 :: Only one",
    );
  });

  // test_contract_format_empty_returns_empty, test_scn_empty_playbook_returns_empty, test_bound_008_empty_key_points
  it("formats no key points as the empty string", () => {
    expect(formatPlaybook([])).toBe("");
  });

  // test_contract_bare_string_migration, test_load_migrates_bare_string, test_scn_load_bare_string_entry
  it("migrates a bare string to kpt_001 with zero counts", () => {
    expect(
      load({ version: "1.0", last_updated: null, key_points: ["Check the exit code"] }),
    ).toEqual({
      playbook: {
        version: "1.0",
        last_updated: null,
        key_points: [kp("kpt_001", "Check the exit code")],
      },
      warnings: [],
    });
  });

  // test_contract_dict_no_score_migration, test_load_migrates_dict_without_score, test_scn_load_dict_without_score
  it("migrates a dict without counters: name and text kept, zero counts", () => {
    expect(
      load({ key_points: [{ name: "kpt_008", text: "Prefer rg over grep" }] }).playbook.key_points,
    ).toEqual([kp("kpt_008", "Prefer rg over grep")]);
  });

  // test_contract_dict_with_score_migration, test_contract_dict_with_positive_score_migration,
  // test_contract_dict_with_zero_score_migration, test_load_migrates_dict_with_score, test_scn_load_dict_with_score_field,
  // test_bound_005..007 (score 0, 1, -1), test_edge_004_large_negative_score, test_edge_005_large_positive_score
  it.each([
    [-4, 0, 4],
    [6, 6, 0],
    [0, 0, 0],
    [1, 1, 0],
    [-1, 0, 1],
    [-250, 0, 250],
    [75, 75, 0],
  ])("migrates score %i to helpful %i, harmful %i, score dropped", (score, helpful, harmful) => {
    expect(
      load({ key_points: [{ name: "kpt_006", text: "Avoid sleeps in tests", score }] }).playbook
        .key_points,
    ).toEqual([kp("kpt_006", "Avoid sleeps in tests", helpful, harmful)]);
  });

  // test_scn_load_dict_with_score_and_counters, test_edge_002_dict_with_score_and_counters
  it("keeps helpful and harmful when a score sits beside them, and drops the score", () => {
    expect(
      load({ key_points: [{ name: "kpt_002", text: "x", helpful: 6, harmful: 1, score: -9 }] })
        .playbook.key_points,
    ).toEqual([kp("kpt_002", "x", 6, 1)]);
  });

  // test_contract_pruning_removes_harmful, test_contract_pruning_retains_helpful, test_contract_pruning_decision_table
  // (names that are not kpt_NNN), test_pruning_* (4), test_scn_prune_* / test_scn_retain_* (4), test_bound_001..004,
  // test_invariant_zero_evaluation_never_pruned, test_inv_003_zero_evaluation_never_pruned
  it.each([
    ["zero", 0, 0, false],
    ["below-floor", 0, 2, false],
    ["at-floor", 0, 3, true],
    ["mostly-harmful", 2, 5, true],
    ["mostly-helpful", 12, 5, false],
    ["tied", 4, 4, false],
    ["one-more-harmful", 3, 4, true],
    ["two-three", 2, 3, true],
    ["very-harmful", 1, 300, true],
  ])("%s (helpful %i, harmful %i) pruned: %s", (name, helpful, harmful, pruned) => {
    const result = update(
      book([kp(name, `lesson ${name}`, helpful, harmful), kp("keeper", "always kept", 1, 0)]),
      {},
    );
    expect(result.playbook.key_points.map((k) => k.name)).toEqual(
      pruned ? ["keeper"] : [name, "keeper"],
    );
    expect(result.pruned.map((k) => k.name)).toEqual(pruned ? [name] : []);
  });

  // test_contract_full_lifecycle_mixed_migration
  it("lifecycle: a mixed legacy file loads, updates (new point, rating, prune), saves and reloads", () => {
    const loaded = load({
      version: "1.0",
      last_updated: "2026-02-02T09:00:00",
      key_points: [
        "Run the linter",
        { name: "kpt_002", text: "Name branches by ticket" },
        { name: "kpt_003", text: "Skip code review", score: -5 },
        { name: "kpt_004", text: "Write the test first", helpful: 3, harmful: 1 },
      ],
    }).playbook;
    const updated = update(loaded, {
      new_key_points: ["Read the CI log"],
      evaluations: [{ name: "kpt_004", rating: "helpful" }],
    });
    expect(updated.added).toEqual(["kpt_005"]);
    expect(updated.pruned.map((k) => k.name)).toEqual(["kpt_003"]);
    const reloaded = roundTrip(updated.playbook);
    expect(reloaded.key_points).toEqual([
      kp("kpt_001", "Run the linter"),
      kp("kpt_002", "Name branches by ticket"),
      kp("kpt_004", "Write the test first", 4, 1),
      kp("kpt_005", "Read the CI log"),
    ]);
    expect(formatPlaybook(reloaded.key_points)).toContain(
      "[kpt_004] helpful=4 harmful=1 :: Write the test first",
    );
  });

  // test_contract_full_lifecycle_round_trip, test_edge_006_pruning_after_update_in_same_call
  it("lifecycle: a harmful rating takes harmful 2 to 3 and the entry is gone after save and reload", () => {
    const result = update(
      book([kp("kpt_001", "Keep it", 4, 0), kp("kpt_002", "Borderline", 0, 2)]),
      { evaluations: [{ name: "kpt_002", rating: "harmful" }] },
    );
    expect(roundTrip(result.playbook).key_points).toEqual([kp("kpt_001", "Keep it", 4, 0)]);
  });

  // test_contract_full_lifecycle_new_keypoints, test_edge_007_new_keypoints_never_pruned
  it("lifecycle: new points start at zero, persist, and take ratings on the next update", () => {
    const first = update(emptyPlaybook(), {
      new_key_points: ["Use a lockfile", "Prefer small PRs"],
    });
    expect(first.playbook.key_points).toEqual([
      kp("kpt_001", "Use a lockfile"),
      kp("kpt_002", "Prefer small PRs"),
    ]);
    const second = update(roundTrip(first.playbook), {
      evaluations: [
        { name: "kpt_001", rating: "helpful" },
        { name: "kpt_002", rating: "harmful" },
      ],
    });
    expect(second.playbook.key_points).toEqual([
      kp("kpt_001", "Use a lockfile", 1, 0),
      kp("kpt_002", "Prefer small PRs", 0, 1),
    ]);
  });

  // test_contract_empty_playbook_schema, test_inval_006_playbook_file_not_exists, test_inval_007_invalid_json
  it.each([
    ["no file", null],
    ["invalid JSON", "{{ not json"],
  ])("%s gives version 1.0, last_updated null, no key points", (_label, text) => {
    expect(loadPlaybook(text).playbook).toEqual({
      version: "1.0",
      last_updated: null,
      key_points: [],
    });
  });

  // test_inval_008_missing_key_points_key
  it("a file without key_points has no key points", () => {
    expect(load({ version: "1.0", last_updated: null }).playbook.key_points).toEqual([]);
  });

  // test_contract_mixed_format_migration, test_edge_001_mixed_format_playbook
  it("migrates the four formats in one file", () => {
    expect(
      load({
        version: "1.0",
        last_updated: null,
        key_points: [
          "A",
          { name: "kpt_002", text: "B" },
          { name: "kpt_003", text: "C", score: 2 },
          { name: "kpt_004", text: "D", helpful: 1, harmful: 5 },
        ],
      }).playbook.key_points,
    ).toEqual([
      kp("kpt_001", "A"),
      kp("kpt_002", "B"),
      kp("kpt_003", "C", 2, 0),
      kp("kpt_004", "D", 1, 5),
    ]);
  });

  // test_invariant_helpful_non_negative, test_invariant_harmful_non_negative, test_inv_001/002 (all paths),
  // test_invariant_no_score_field_after_load, test_inv_004_no_score_after_load_all_branches
  it("every migration path gives whole counts >= 0 and no score", () => {
    const { playbook } = load({
      key_points: [
        "bare",
        { text: "nameless" },
        { name: "kpt_003", text: "neg", score: -8 },
        { name: "kpt_004", text: "pos", score: 9 },
        { name: "kpt_005", text: "canon", helpful: 2, harmful: 0, score: 1 },
      ],
    });
    expect(playbook.key_points).toEqual([
      kp("kpt_001", "bare"),
      kp("kpt_002", "nameless"),
      kp("kpt_003", "neg", 0, 8),
      kp("kpt_004", "pos", 9, 0),
      kp("kpt_005", "canon", 2, 0),
    ]);
  });

  // test_invariant_migration_round_trip_stability, test_inv_006_round_trip_stability
  it("load, save, load gives the same key points and version", () => {
    const first = load({
      version: "1.0",
      last_updated: "2026-01-01T00:00:00",
      key_points: [
        "one",
        { name: "kpt_002", text: "two" },
        { name: "kpt_003", text: "three", score: -3 },
        { name: "kpt_004", text: "four", helpful: 2, harmful: 0 },
      ],
    }).playbook;
    const second = roundTrip(first);
    expect(second.key_points).toEqual(first.key_points);
    expect(second.version).toBe(first.version);
  });

  // test_inval_009_new_keypoint_empty_text
  it("an empty new key point is not added", () => {
    expect(update(emptyPlaybook(), { new_key_points: [""] }).playbook.key_points).toEqual([]);
  });

  // test_inval_010_duplicate_new_keypoint
  it("a new key point with the text of an existing one is not added", () => {
    expect(
      update(book([kp("kpt_001", "Check the exit code")]), {
        new_key_points: ["Check the exit code"],
      }).playbook.key_points,
    ).toEqual([kp("kpt_001", "Check the exit code")]);
  });

  // test_edge_003_dict_without_name, test_canonical_dict_without_name_generates_name
  it("entries without a name get unique kpt_ names; a canonical one keeps its counts", () => {
    expect(
      load({
        key_points: [
          { text: "first" },
          { text: "second", score: 2 },
          { text: "third", helpful: 4, harmful: 1 },
        ],
      }).playbook.key_points,
    ).toEqual([
      kp("kpt_001", "first"),
      kp("kpt_002", "second", 2, 0),
      kp("kpt_003", "third", 4, 1),
    ]);
  });

  // test_generate_keypoint_name_malformed
  it("name generation skips kpt_ names without a number", () => {
    const named = (names: string[]) =>
      update(book(names.map((n, i) => kp(n, `point ${i}`))), { new_key_points: ["fresh"] }).added;
    expect(named(["kpt_xyz", "kpt_", "kpt_004"])).toEqual(["kpt_005"]);
  });
});

describe("the fork's diagnostics (LOG-SCORE-001/002), deliberately not files", () => {
  // test_instrumentation_pruning_diagnostic_created, test_instrumentation_pruning_text_truncated: Charter returns the
  // pruned entries (full text, counts) in the update's result instead of writing .claude/diagnostic files.
  it("an update lists what it pruned, with the whole text and the counts; nothing when nothing is pruned", () => {
    const long = "y".repeat(150);
    expect(update(book([kp("kpt_001", long, 1, 4)]), {}).pruned).toEqual([
      kp("kpt_001", long, 1, 4),
    ]);
    expect(update(book([kp("kpt_001", "fine", 9, 1)]), {}).pruned).toEqual([]);
  });
});

describe("names: never reused", () => {
  it("a new point gets the highest kpt number + 1, not the lowest free one", () => {
    const result = update(book([kp("kpt_001", "a"), kp("kpt_004", "b")]), {
      new_key_points: ["c"],
    });
    expect(result.added).toEqual(["kpt_005"]);
  });

  it("a pruned name is not given to a new point, so a late rating of the old point lands nowhere", () => {
    // kpt_002 is pruned while a new point is added in the same call (as in the fork: added before pruning).
    const first = update(book([kp("kpt_001", "keep"), kp("kpt_002", "bad advice", 0, 2)]), {
      new_key_points: ["fresh"],
      evaluations: [{ name: "kpt_002", rating: "harmful" }],
    });
    expect(first.playbook.key_points.map((k) => k.name)).toEqual(["kpt_001", "kpt_003"]);
    const late = update(first.playbook, {
      new_key_points: ["another"],
      evaluations: [{ name: "kpt_002", rating: "helpful" }],
    });
    expect(late.added).toEqual(["kpt_004"]);
    expect(late.playbook.key_points.every((k) => k.helpful === 0)).toBe(true);
    expect(late.warnings).toEqual([
      "a rating of kpt_002, which is not in the playbook, was ignored",
    ]);
  });

  it("when the pruned name was the highest, the file remembers it in kpt_high_water (Charter's addition)", () => {
    const pruned = update(book([kp("kpt_001", "keep"), kp("kpt_002", "bad advice", 0, 3)]), {});
    expect(pruned.playbook[HIGH_WATER_FIELD]).toBe(2);
    const saved = roundTrip(pruned.playbook);
    expect(saved[HIGH_WATER_FIELD]).toBe(2);
    expect(update(saved, { new_key_points: ["fresh"] }).added).toEqual(["kpt_003"]);
  });

  it("names that are not kpt_NNN do not count; kpt_12_x counts as 12 as in the fork", () => {
    const named = (names: string[]) =>
      update(book(names.map((n, i) => kp(n, `point ${i}`))), { new_key_points: ["fresh"] }).added;
    expect(named(["style-40", "PAT-900", "kpt_002"])).toEqual(["kpt_003"]);
    expect(named(["kpt_12_x"])).toEqual(["kpt_013"]);
    expect(named(["kpt_999"])).toEqual(["kpt_1000"]);
  });

  it("a bare string on load gets the highest number seen so far + 1", () => {
    expect(
      load({ key_points: [{ name: "kpt_007", text: "a" }, "b"] }).playbook.key_points.map(
        (k) => k.name,
      ),
    ).toEqual(["kpt_007", "kpt_008"]);
  });

  it("deliberately: a generated name never takes a name given later in the file (the fork would give kpt_001 twice)", () => {
    const { playbook, warnings } = load({ key_points: ["a", { name: "kpt_001", text: "b" }] });
    expect(playbook.key_points.map((k) => k.name)).toEqual(["kpt_002", "kpt_001"]);
    expect(warnings).toEqual([]);
  });

  it("deliberately: a repeated name gets a new one, with a warning (the fork keeps both, and a rating lands on the last)", () => {
    const { playbook, warnings } = load({
      key_points: [
        { name: "kpt_003", text: "a" },
        { name: "kpt_003", text: "b" },
      ],
    });
    expect(playbook.key_points.map((k) => k.name)).toEqual(["kpt_003", "kpt_004"]);
    expect(warnings).toEqual(["key_points[1] repeats the name kpt_003: given a new one"]);
  });
});

describe("duplicate texts", () => {
  it("compares exactly, case-sensitive as the fork does; surrounding whitespace does not count", () => {
    const result = update(book([kp("kpt_001", "Prefer pathlib")]), {
      new_key_points: ["prefer pathlib", "  Prefer pathlib \n"],
    });
    expect(result.playbook.key_points).toEqual([
      kp("kpt_001", "Prefer pathlib"),
      kp("kpt_002", "prefer pathlib"),
    ]);
    expect(result.warnings).toEqual([
      'the new key point "Prefer pathlib" has the same text as kpt_001: skipped',
    ]);
  });

  it("deliberately: the same text twice in one answer is added once (the fork adds both)", () => {
    const result = update(emptyPlaybook(), {
      new_key_points: ["Cache the build", "Cache the build"],
    });
    expect(result.playbook.key_points).toEqual([kp("kpt_001", "Cache the build")]);
    expect(result.warnings).toEqual([
      'the new key point "Cache the build" has the same text as kpt_001: skipped',
    ]);
  });
});

describe("malformed reflector items: skipped with a warning, the rest applied", () => {
  it("names each skipped item and applies everything else", () => {
    const result = update(book([kp("kpt_001", "Read the docs", 1, 0)]), {
      new_key_points: ["Pin the time zone", "", "   ", 42, null, { section: "x" }],
      evaluations: [
        { name: "kpt_001", rating: "helpful" },
        { name: "kpt_001" },
        { rating: "harmful" },
        "kpt_001",
        { name: 7, rating: "helpful" },
        { name: "kpt_001", rating: 1 },
      ],
    });
    expect(result.playbook.key_points).toEqual([
      kp("kpt_001", "Read the docs", 2, 0),
      kp("kpt_002", "Pin the time zone"),
    ]);
    expect(result.warnings).toEqual([
      "new_key_points[1] is empty: skipped",
      "new_key_points[2] is empty: skipped",
      "new_key_points[3] is a number, not a text: skipped",
      "new_key_points[4] is null, not a text: skipped",
      "new_key_points[5] is an object without a text, not a text: skipped",
      "evaluations[1] (kpt_001) has no rating: skipped",
      "evaluations[2] has no name: skipped",
      "evaluations[3] is a string, not {name, rating}: skipped",
      "evaluations[4] has no name (a number): skipped",
      "evaluations[5] (kpt_001) has no rating (a number): skipped",
    ]);
  });

  it("a list that is not a list is ignored with a warning; the other list still applies (the fork crashes on null)", () => {
    const result = update(book([kp("kpt_001", "a")]), {
      new_key_points: "Use rg",
      evaluations: [{ name: "kpt_001", rating: "helpful" }],
    });
    expect(result.playbook.key_points).toEqual([kp("kpt_001", "a", 1, 0)]);
    expect(result.warnings).toEqual(["new_key_points is a string, not a list: ignored"]);
    expect(update(emptyPlaybook(), { new_key_points: null, evaluations: null }).warnings).toEqual(
      [],
    );
  });

  it("an object item gives its text, as the fork's later {text, section} items do", () => {
    const result = update(emptyPlaybook(), {
      new_key_points: [{ text: "Prefer fixtures", section: "TESTING" }],
    });
    expect(result.playbook.key_points).toEqual([kp("kpt_001", "Prefer fixtures")]);
    expect(result.warnings).toEqual([
      "new_key_points[0] is an object: its text is used, section ignored",
    ]);
  });

  it("an object with neither list applies nothing, with a warning saying what it had", () => {
    expect(update(emptyPlaybook(), { key_points: ["x"] }).warnings).toEqual([
      "the extraction has neither new_key_points nor evaluations (it has key_points): nothing to apply",
    ]);
    expect(update(emptyPlaybook(), {}).warnings).toEqual([
      "the extraction has neither new_key_points nor evaluations: nothing to apply",
    ]);
  });

  it("ratings are compared exactly: Helpful is not helpful (as in the fork), with a warning", () => {
    const result = update(book([kp("kpt_001", "a")]), {
      evaluations: [{ name: "kpt_001", rating: "Helpful" }],
    });
    expect(result.playbook.key_points).toEqual([kp("kpt_001", "a")]);
    expect(result.warnings).toEqual([
      'the rating "Helpful" of kpt_001 is not helpful, harmful or neutral: no change',
    ]);
  });

  it.each([
    ["a list", [{ name: "kpt_001", rating: "helpful" }], "expected object, received array"],
    ["a string", "helpful", "expected object, received string"],
    ["null", null, "expected object, received null"],
  ])("refuses %s: not an ExtractionResult at all", (_label, raw, message) => {
    const parsed = extractionResultSchema.safeParse(raw);
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.message).toBe(`Invalid input: ${message}`);
  });
});

describe("files: what is kept", () => {
  it("keeps other entry fields, names that are not kpt_NNN and other top-level fields, in their order", () => {
    const file = {
      version: "2.1",
      last_updated: "2026-01-15T10:00:00.123456",
      team: "infra",
      key_points: [
        { name: "pat-001", text: "Prefer fixtures", section: "TESTING", helpful: 3, harmful: 0 },
        { name: "kpt_004", text: "Lint first", score: 2, source: "manual" },
      ],
    };
    const { playbook, warnings } = load(file);
    expect(warnings).toEqual([]);
    expect(playbook).toEqual({
      version: "2.1",
      last_updated: "2026-01-15T10:00:00.123456",
      team: "infra",
      key_points: [
        { name: "pat-001", text: "Prefer fixtures", section: "TESTING", helpful: 3, harmful: 0 },
        { name: "kpt_004", text: "Lint first", source: "manual", helpful: 2, harmful: 0 },
      ],
    });
    expect(Object.keys(playbook)).toEqual(["version", "last_updated", "team", "key_points"]);
    const saved = savePlaybook(
      update(playbook, {
        new_key_points: ["New"],
        evaluations: [{ name: "pat-001", rating: "helpful" }],
      }).playbook,
      new Date("2026-03-01T08:00:00Z"),
    );
    expect(saved).toMatchObject({
      version: "2.1",
      team: "infra",
      key_points: [
        { name: "pat-001", section: "TESTING", helpful: 4 },
        { name: "kpt_004", source: "manual" },
        { name: "kpt_005", text: "New" },
      ],
    });
  });

  it("a file without key_points keeps its version, last_updated and other fields, with a warning", () => {
    expect(load({ version: "1.3", last_updated: "2026-01-15T10:00:00", team: "infra" })).toEqual({
      playbook: {
        version: "1.3",
        last_updated: "2026-01-15T10:00:00",
        team: "infra",
        key_points: [],
      },
      warnings: [
        "the playbook has no key_points: starting with no key points (its other fields are kept)",
      ],
    });
  });

  it("a file in the fork's later sections format keeps its sections untouched, with a warning", () => {
    const sections = {
      "PATTERNS & APPROACHES": [{ name: "pat-001", text: "x", helpful: 0, harmful: 0 }],
    };
    const { playbook, warnings } = load({ version: "1.0", last_updated: null, sections });
    expect(playbook).toEqual({ version: "1.0", last_updated: null, sections, key_points: [] });
    expect(warnings[0]).toMatch(/sections but no key_points .*kept as they are, not read/);
  });

  it("deliberately: key_points that is not a list gives no key points and keeps the rest (the fork drops the file, or reads a string letter by letter)", () => {
    for (const key_points of [null, "abc", 5, { a: 1 }]) {
      const { playbook, warnings } = load({
        version: "1.0",
        last_updated: "2026-01-15T10:00:00",
        key_points,
      });
      expect(playbook).toEqual({
        version: "1.0",
        last_updated: "2026-01-15T10:00:00",
        key_points: [],
      });
      expect(warnings[0]).toMatch(/^key_points is .*, not a list/);
    }
  });

  it("a version that is a number is kept as it is; deliberately, a missing version is 1.0 and one that is neither is 1.0 with a warning", () => {
    expect(load({ version: 1.5, key_points: [] })).toEqual({
      playbook: { version: 1.5, last_updated: null, key_points: [] },
      warnings: [],
    });
    expect(load({ key_points: [] }).playbook).toEqual({
      version: "1.0",
      last_updated: null,
      key_points: [],
    });
    expect(load({ version: null, key_points: [] })).toEqual({
      playbook: { version: "1.0", last_updated: null, key_points: [] },
      warnings: ['version is null, not a text: taken as "1.0"'],
    });
  });

  it("deliberately: entries without text, empty texts and items that are not entries are skipped with a warning (the fork keeps dicts without text, then fails formatting them)", () => {
    const { playbook, warnings } = load({
      key_points: [
        { name: "kpt_001" },
        "",
        { name: "kpt_002", text: "  " },
        5,
        null,
        ["x"],
        "kept",
      ],
    });
    // The skipped entries' names are not given to another point.
    expect(playbook.key_points).toEqual([kp("kpt_003", "kept")]);
    expect(warnings).toEqual([
      "key_points[0] (kpt_001) has no text: skipped",
      "key_points[1] is an empty text: skipped",
      "key_points[2] (kpt_002) has no text: skipped",
      "key_points[3] is a number, not a text or an entry: skipped",
      "key_points[4] is null, not a text or an entry: skipped",
      "key_points[5] is a list, not a text or an entry: skipped",
    ]);
  });

  it.each([
    [
      "helpful only (the fork resets it to 0)",
      { helpful: 4 },
      4,
      0,
      "key_points[0] has helpful but no harmful: harmful taken as 0",
    ],
    [
      "a numeric text count (the fork then fails on +1)",
      { helpful: "3", harmful: 1 },
      3,
      1,
      'key_points[0].helpful is "3": taken as 3',
    ],
    [
      "a negative count",
      { helpful: -2, harmful: 1 },
      0,
      1,
      "key_points[0].helpful is -2: taken as 0",
    ],
    ["a fraction", { helpful: 2.7, harmful: 0 }, 2, 0, "key_points[0].helpful is 2.7: taken as 2"],
    [
      "a count that is not a number",
      { helpful: true, harmful: 0 },
      0,
      0,
      "key_points[0].helpful is true, not a count: taken as 0",
    ],
    [
      "a score that is not a number (the fork drops the whole file)",
      { score: "bad" },
      0,
      0,
      'key_points[0].score is "bad", not a number: taken as 0',
    ],
    ["a numeric text score", { score: "-2" }, 0, 2, 'key_points[0].score is "-2": taken as -2'],
    [
      "a score with one counter (the score wins, as in the fork)",
      { score: 3, harmful: 9 },
      3,
      0,
      "key_points[0] has score and only harmful: both counts taken from score",
    ],
  ])("deliberately repairs %s, with a warning", (_label, fields, helpful, harmful, warning) => {
    const { playbook, warnings } = load({
      key_points: [{ name: "kpt_001", text: "t", ...fields }],
    });
    expect(playbook.key_points).toEqual([kp("kpt_001", "t", helpful, harmful)]);
    expect(warnings).toEqual([warning]);
  });

  it("deliberately: a name that is not a text gets a kpt_ name, with a warning (the fork keeps it, then fails naming new points)", () => {
    const { playbook, warnings } = load({ key_points: [{ name: 12, text: "t" }] });
    expect(playbook.key_points).toEqual([kp("kpt_001", "t")]);
    expect(warnings).toEqual(["key_points[0] has the name 12, not a text: given a new one"]);
  });

  it("deliberately: save writes last_updated in UTC with Z (the fork writes local time without a zone); any text is read back", () => {
    expect(savePlaybook(emptyPlaybook(), new Date("2026-02-18T14:30:00Z")).last_updated).toBe(
      "2026-02-18T14:30:00.000Z",
    );
    expect(
      load({ last_updated: "2026-02-18T14:30:00.000000", key_points: [] }).playbook.last_updated,
    ).toBe("2026-02-18T14:30:00.000000");
  });

  it("a top-level list or number gives the empty playbook, as in the fork", () => {
    expect(loadPlaybook("[]").playbook).toEqual(emptyPlaybook());
    expect(loadPlaybook("3").playbook).toEqual(emptyPlaybook());
  });
});
