/**
 * Charter against kgents (kgang/kgents), the turn-score spec: the constitutional reward of a chat turn.
 *
 * The first part restates kgents' own reward tests (impl/claude/services/chat/_tests/
 * test_reward.py: 27 tests in four classes) as Charter cases, with inputs and expected
 * values written here; each case names the test it stands for. The second part pins
 * down how Charter reads kgents' real TurnResult (services/chat/evidence.py) and score
 * dicts (PrincipleScore.from_dict in services/constitutional/reward.py), and where it
 * deliberately differs (see docs/compat-drafts/kgents.md).
 */
import { describe, expect, it } from "vitest";
import { SEED_PRINCIPLE_ORDER } from "@/test/fixtures/seeds/turn-score";
import {
  constitutionalReward,
  PRINCIPLES,
  PrincipleScore,
  readScoreDict,
  readTurnResult,
  ScoreDictError,
  TurnResultError,
  type ScoreDict,
} from "@/lib/reward";

const PERFECT: ScoreDict = {
  tasteful: 1,
  curated: 1,
  ethical: 1,
  joy_inducing: 1,
  composable: 1,
  heterarchical: 1,
  generative: 1,
};
const named = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `tool_${i}` }));
const reward = (turn: Parameters<typeof constitutionalReward>[1], hasMutations = false) =>
  constitutionalReward("send_message", turn, hasMutations);

describe("kgents' test_reward.py, restated", () => {
  describe("TestPrincipleScore", () => {
    it("test_default_scores_are_one", () => {
      expect(new PrincipleScore().toDict()).toEqual(PERFECT);
    });
    it("test_custom_scores", () => {
      const score = new PrincipleScore({
        tasteful: 0.9,
        curated: 0.8,
        ethical: 0.7,
        joy_inducing: 0.6,
        composable: 0.5,
        heterarchical: 0.4,
        generative: 0.3,
      });
      expect([
        score.tasteful,
        score.curated,
        score.ethical,
        score.joy_inducing,
        score.composable,
        score.heterarchical,
        score.generative,
      ]).toEqual([0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3]);
    });
    it("test_weighted_total_default_weights: 8.7", () => {
      expect(new PrincipleScore().weightedTotal()).toBe(8.7);
    });
    it("test_weighted_total_custom_weights: 0.5 x 3 + 0.8 x 2 + 5 = 8.1", () => {
      const weights = {
        ethical: 3,
        composable: 2,
        joy_inducing: 1,
        tasteful: 1,
        curated: 1,
        heterarchical: 1,
        generative: 1,
      };
      expect(new PrincipleScore({ ethical: 0.5, composable: 0.8 }).weightedTotal(weights)).toBe(
        8.1,
      );
    });
    it("test_weighted_total_partial_override: a principle missing from the weights weighs 1.0, so 0.5 x 3 + 6 = 7.5", () => {
      expect(new PrincipleScore({ ethical: 0.5 }).weightedTotal({ ethical: 3 })).toBe(7.5);
    });
    it("test_to_dict: the seven keys in kgents' order", () => {
      const dict = new PrincipleScore({ ethical: 0.8, composable: 0.9 }).toDict();
      expect(dict).toEqual({
        tasteful: 1,
        curated: 1,
        ethical: 0.8,
        joy_inducing: 1,
        composable: 0.9,
        heterarchical: 1,
        generative: 1,
      });
      expect(Object.keys(dict)).toEqual(SEED_PRINCIPLE_ORDER);
    });
    it("test_from_dict: given keys read, missing keys 1.0", () => {
      const score = PrincipleScore.fromDict({ tasteful: 0.9, ethical: 0.8, composable: 0.7 });
      expect([
        score.tasteful,
        score.ethical,
        score.composable,
        score.curated,
        score.joy_inducing,
      ]).toEqual([0.9, 0.8, 0.7, 1, 1]);
    });
    it("test_roundtrip_serialization", () => {
      const original = new PrincipleScore({
        tasteful: 0.1,
        curated: 0.2,
        ethical: 0.3,
        joy_inducing: 0.4,
      });
      expect(PrincipleScore.fromDict(original.toDict()).toDict()).toEqual({
        tasteful: 0.1,
        curated: 0.2,
        ethical: 0.3,
        joy_inducing: 0.4,
        composable: 1,
        heterarchical: 1,
        generative: 1,
      });
    });
  });

  describe("TestConstitutionalReward", () => {
    it("test_perfect_turn", () => {
      expect(
        reward({
          response: "This is a thoughtful, helpful response!",
          tools: [],
          tools_passed: true,
        }).score.toDict(),
      ).toEqual(PERFECT);
    });
    it("test_no_turn_result: all 1.0", () => {
      const { score, reasoning } = constitutionalReward("send_message");
      expect(score.toDict()).toEqual(PERFECT);
      expect(reasoning).toBe("send_message: no turn result, so every principle scored 1.0.");
    });
    it.each([
      ["test_ethical_unacknowledged_mutations", false, true, 0.5],
      ["test_ethical_acknowledged_mutations", true, true, 0.9],
      ["test_ethical_no_mutations", true, false, 1],
    ])("%s", (_name, toolsPassed, mutations, ethical) => {
      expect(reward({ tools_passed: toolsPassed }, mutations).score.ethical).toBe(ethical);
    });
    it.each([
      ["test_composable_few_tools", 5, 1],
      ["test_composable_many_tools", 10, 0.5],
      ["test_composable_extreme_tools (never below 0.5)", 100, 0.5],
      ["test_composable_zero_tools", 0, 1],
    ])("%s: %i tools -> %s", (_name, n, composable) => {
      expect(reward({ tools: named(n) }).score.composable).toBe(composable);
    });
    it.each([
      ["test_joy_long_response", "This is a thoughtful response!", 1],
      ["test_joy_short_response", "OK", 0.55],
      ["test_joy_empty_response", "", 0.3],
      ["test_joy_exactly_20_chars", "12345678901234567890", 1],
    ])("%s: %j -> %s", (_name, response, joy) => {
      expect(reward({ response }).score.joy_inducing).toBe(joy);
    });
    it("test_multiple_violations: ethical, composable and joy lowered, the other four 1.0", () => {
      const { score } = reward({ response: "OK", tools: named(10), tools_passed: false }, true);
      expect(score.toDict()).toEqual({
        tasteful: 1,
        curated: 1,
        ethical: 0.5,
        joy_inducing: 0.55,
        composable: 0.5,
        heterarchical: 1,
        generative: 1,
      });
    });
    it("test_weighted_total_with_violations: 1.0 + 0.75 + 0.66 + 4 = 6.41", () => {
      expect(
        reward(
          { response: "OK", tools: named(10), tools_passed: false },
          true,
        ).score.weightedTotal(),
      ).toBe(6.41);
    });
  });

  describe("TestPrincipleEnum", () => {
    it("test_all_seven_principles_exist and test_principle_values: lower-case snake_case", () => {
      expect(PRINCIPLES).toEqual(SEED_PRINCIPLE_ORDER);
    });
  });

  describe("TestRewardIntegration", () => {
    it("test_reward_integrates_with_turn_result: the full TurnResult, mutations acknowledged", () => {
      const turn = {
        tools_passed: true,
        tools: [
          { name: "read_file", status: "success" },
          { name: "write_file", status: "success" },
        ],
        user_corrected: false,
        signals: [],
        response: "I've successfully read and updated the file for you!",
        stopping_suggestion: null,
      };
      const { score, warnings } = reward(turn, true);
      expect(score.toDict()).toEqual({ ...PERFECT, ethical: 0.9 });
      expect(warnings).toEqual([]);
    });
    it("test_reward_score_serialization", () => {
      const { score } = reward({ response: "Great work!" });
      expect(score.toDict()).toEqual({ ...PERFECT, joy_inducing: 0.775 });
      expect(PrincipleScore.fromDict(score.toDict()).toDict()).toEqual(score.toDict());
    });
  });
});

describe("kgents' real TurnResult, read", () => {
  // dataclasses.asdict(TurnResult()) in services/chat/evidence.py: every field at its default.
  const DEFAULT_TURN = {
    tools_passed: true,
    tools: [],
    user_corrected: false,
    signals: [],
    response: "",
    stopping_suggestion: null,
  };

  it("the dataclass's defaults score as kgents' TurnResult() does: only joy lowered, for the empty response", () => {
    const { score, ignored_fields, warnings } = reward(DEFAULT_TURN);
    expect(score.toDict()).toEqual({ ...PERFECT, joy_inducing: 0.3 });
    expect(ignored_fields).toEqual(["user_corrected", "signals", "stopping_suggestion"]);
    expect(warnings).toEqual([]);
  });

  it("user_corrected, signals and stopping_suggestion change nothing, whatever they hold", () => {
    const plain = reward(
      { response: "A careful answer to the question.", tools_passed: false },
      true,
    ).score.toDict();
    const full = reward(
      {
        response: "A careful answer to the question.",
        tools_passed: false,
        user_corrected: true,
        signals: [{ type: "thumbs_down" }],
        stopping_suggestion: "stop here",
      },
      true,
    );
    expect(full.score.toDict()).toEqual(plain);
    expect(full.warnings).toEqual([]);
  });

  it("an unknown field is ignored, listed and warned about by name", () => {
    const { score, ignored_fields, warnings } = reward(
      { response: "A careful answer to the question.", tool_passed: false, latency_ms: 420 },
      true,
    );
    expect(score.ethical).toBe(0.9);
    expect(ignored_fields).toEqual(["tool_passed", "latency_ms"]);
    expect(warnings).toEqual([
      "turn_result.tool_passed: not a TurnResult field; ignored",
      "turn_result.latency_ms: not a TurnResult field; ignored",
    ]);
  });

  it("a null turn_result is no turn: all 1.0, has_mutations included (kgents' _apply_chat_rules returns early)", () => {
    const { score, warnings } = reward(null, true);
    expect(score.toDict()).toEqual(PERFECT);
    expect(warnings).toEqual([
      "has_mutations is true but there is no turn_result: ethical stays 1.0, as kgents scores a turn without a result",
    ]);
  });

  it("an empty TurnResult is a turn (kgents' TurnResult()): joy 0.3 for the empty response", () => {
    expect(reward({}).score.joy_inducing).toBe(0.3);
  });

  it("every entry of tools counts (kgents takes len(tools)): unnamed, empty, even not an object", () => {
    const { score, warnings } = reward({
      response: "A careful answer to the question.",
      tools: [
        { name: "Read" },
        {},
        { status: "success" },
        { name: "" },
        { name: 5 },
        "Bash",
        null,
        { name: "Grep" },
      ],
    });
    expect(score.composable).toBe(0.7);
    expect(warnings).toEqual([
      "turn_result.tools.5: a string, not an object; counted as one tool",
      "turn_result.tools.6: null, not an object; counted as one tool",
    ]);
  });

  it("response length counts characters as Python's len does, not UTF-16 units", () => {
    expect(reward({ response: "👍" }).score.joy_inducing).toBe(0.525);
    expect(reward({ response: "日本語の答え" }).score.joy_inducing).toBe(0.65);
  });

  it("the reasoning says '1 character', not '1 characters'", () => {
    expect(reward({ response: "k" }).reasoning).toBe(
      "send_message: joy_inducing 0.525: the response is 1 character, under 20.",
    );
    expect(reward({ response: "ok" }).reasoning).toBe(
      "send_message: joy_inducing 0.55: the response is 2 characters, under 20.",
    );
  });

  it("context_utilization, kgents' planned field, scores as its plan says: max(0.5, 1 - (u - 0.9) x 5)", () => {
    expect(
      [0.5, 0.9, 0.95, 1].map(
        (u) =>
          reward({ response: "A careful answer to the question.", context_utilization: u }).score
            .generative,
      ),
    ).toEqual([1, 1, 0.75, 0.5]);
    expect(
      reward({ response: "A careful answer to the question.", context_utilization: null }).score
        .generative,
    ).toBe(1);
  });

  describe("refused, because reading it would give a wrong score (kgents would crash or misread it)", () => {
    it.each([
      [{ response: null }, "turn_result.response: must be a string"],
      [{ response: 42 }, "turn_result.response: must be a string"],
      [{ tools: null }, "turn_result.tools: must be a list"],
      [{ tools: { name: "Read" } }, "turn_result.tools: must be a list"],
      [{ tools_passed: "false" }, "turn_result.tools_passed: must be true or false"],
      [{ tools_passed: null }, "turn_result.tools_passed: must be true or false"],
      [{ context_utilization: 1.5 }, "turn_result.context_utilization: must be between 0 and 1"],
      [{ context_utilization: "0.95" }, "turn_result.context_utilization: must be a number"],
      [["OK"], "turn_result: must be an object (a TurnResult) or null, not a list"],
      ["OK", "turn_result: must be an object (a TurnResult) or null, not a string"],
    ])("%j", (turn, message) => {
      expect(() => readTurnResult(turn)).toThrow(TurnResultError);
      expect(() => readTurnResult(turn)).toThrow(`Invalid TurnResult: ${message}`);
    });
  });
});

describe("kgents' PrincipleScore.from_dict, read", () => {
  it("unknown keys are ignored, as data.get reads only the seven, and named", () => {
    const { score, ignored_keys } = readScoreDict({ ethical: 0.8, ethics: 0.1, total: 6.2 });
    expect(score.toDict()).toEqual({ ...PERFECT, ethical: 0.8 });
    expect(ignored_keys).toEqual(["ethics", "total"]);
  });
  it("an empty dict is a perfect score", () => {
    expect(PrincipleScore.fromDict({}).toDict()).toEqual(PERFECT);
  });
  it.each([
    [{ ethical: 1.5 }, "ethical: must be between 0 and 1"],
    [{ ethical: -0.5 }, "ethical: must be between 0 and 1"],
    [{ ethical: "0.8" }, "ethical: must be a number"],
    [{ ethical: null }, "ethical: must be a number"],
    [{ ethical: true }, "ethical: must be a number"],
    [null, "(scores): Invalid input: expected object, received null"],
  ])("refuses %j (kgents keeps it and its totals go wrong or crash)", (data, message) => {
    expect(() => PrincipleScore.fromDict(data)).toThrow(ScoreDictError);
    expect(() => PrincipleScore.fromDict(data)).toThrow(message);
  });
});

describe("deliberate differences in arithmetic", () => {
  it("each principle's score is the same number as kgents' (no float noise in any of them)", () => {
    expect(
      Array.from(
        { length: 19 },
        (_, i) => reward({ response: "x".repeat(i + 1) }).score.joy_inducing,
      ),
    ).toEqual([
      0.525, 0.55, 0.575, 0.6, 0.625, 0.65, 0.675, 0.7, 0.725, 0.75, 0.775, 0.8, 0.825, 0.85, 0.875,
      0.9, 0.925, 0.95, 0.975,
    ]);
    expect([6, 7, 8, 9, 10, 11].map((n) => reward({ tools: named(n) }).score.composable)).toEqual([
      0.9, 0.8, 0.7, 0.6, 0.5, 0.5,
    ]);
  });
  it("totals are rounded to 4 decimals: an empty response totals 7.86 (kgents: 7.859999999999999)", () => {
    expect(reward({}).score.weightedTotal()).toBe(7.86);
  });
});
