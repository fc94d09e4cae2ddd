import { describe, expect, it } from "vitest";
import {
  composableScore,
  constitutionalReward,
  ethicalScore,
  generativeScore,
  joyScore,
  PrincipleScore,
  readScoreDict,
  ScoreDictError,
} from "./reward";
import {
  GENERATIVE_TABLE,
  SEED_COMPOSABLE_TABLE,
  SEED_DEFAULT_WEIGHTS,
  SEED_DICT_EXAMPLES,
  SEED_ETHICAL_TABLE,
  SEED_JOY_TABLE,
  SEED_ONE_ZERO_TOTALS,
  SEED_PERFECT_TOTAL,
  SEED_PRINCIPLE_ORDER,
  SEED_REWARD_EXAMPLES,
  SEED_WEIGHT_EXAMPLES,
} from "@/test/fixtures/seeds/turn-score";
import { DEFAULT_WEIGHTS } from "./schema";

describe("turn-score examples (docs/spec/turn-score.md)", () => {
  it.each(SEED_REWARD_EXAMPLES.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const { score } = constitutionalReward("send_message", c.turn, c.hasMutations);
    const { weightedTotal, weightedTotalBelow, joyBelow, ...scores } = c.expect;
    for (const [principle, value] of Object.entries(scores))
      expect(score.scores[principle as keyof typeof scores]).toBe(value);
    if (weightedTotal !== undefined) expect(score.weightedTotal()).toBe(weightedTotal);
    if (weightedTotalBelow !== undefined)
      expect(score.weightedTotal()).toBeLessThan(weightedTotalBelow);
    if (joyBelow !== undefined) expect(score.joy_inducing).toBeLessThan(joyBelow);
  });
});

describe("turn-score tables (docs/spec/turn-score.md § Scoring rules)", () => {
  it.each(SEED_ETHICAL_TABLE)(
    "ethical: mutations=%s tools_passed=%s -> %s",
    (mutations, passed, expected) => {
      expect(ethicalScore(mutations, passed)).toBe(expected);
    },
  );
  it.each(SEED_COMPOSABLE_TABLE)("composable: %i tools -> %s", (n, expected) => {
    expect(composableScore(n)).toBe(expected);
  });
  it.each(SEED_JOY_TABLE)("joy: %i characters -> %s", (length, expected) => {
    expect(joyScore("x".repeat(length))).toBe(expected);
  });
  it.each(GENERATIVE_TABLE)("generative (Charter's rule): utilization %s -> %s", (u, expected) => {
    expect(generativeScore(u)).toBe(expected);
    expect(constitutionalReward("send_message", { context_utilization: u }).score.generative).toBe(
      expected,
    );
  });
  it("counts characters, not UTF-16 units, for joy", () => {
    expect(joyScore("👍👍")).toBe(joyScore("ok"));
  });
});

describe("weighted and normalized totals", () => {
  it.each(SEED_WEIGHT_EXAMPLES.map((e) => [JSON.stringify(e.weights ?? "default"), e] as const))(
    "a perfect score under %s weights",
    (_label, e) => {
      const score = new PrincipleScore();
      expect(score.weightedTotal(e.weights)).toBe(e.total);
      expect(PrincipleScore.maxTotal(e.weights)).toBe(e.total);
      expect(score.normalizedTotal(e.weights)).toBe(1);
    },
  );
  it("the default weights are the spec's", () => {
    expect(DEFAULT_WEIGHTS).toEqual(SEED_DEFAULT_WEIGHTS);
    expect(PrincipleScore.maxTotal()).toBe(SEED_PERFECT_TOTAL);
  });
  it.each(SEED_ONE_ZERO_TOTALS)(
    "a perfect turn with %s at 0 totals %s under the default weights",
    (principle, total) => {
      expect(new PrincipleScore({ [principle]: 0 }).weightedTotal()).toBe(total);
    },
  );
  it("normalizes so totals under different weights compare", () => {
    const { score } = constitutionalReward(
      "send_message",
      { response: "Done!", tools_passed: false },
      true,
    );
    // ethical 0.5 (-1.0), joy 0.625 (-0.45): 7.25 / 8.7
    expect(score.weightedTotal()).toBe(7.25);
    expect(score.normalizedTotal()).toBe(0.8333);
    expect(score.normalizedTotal({ ethical: 10 })).toBeLessThan(
      score.normalizedTotal({ ethical: 0 }),
    );
  });
});

describe("serialization", () => {
  it("round-trips through a dict with snake_case keys in seed order", () => {
    const score = new PrincipleScore(SEED_DICT_EXAMPLES.roundTrip);
    const dict = score.toDict();
    expect(Object.keys(dict)).toEqual(SEED_PRINCIPLE_ORDER);
    expect(PrincipleScore.fromDict(dict).toDict()).toEqual(dict);
    expect(PrincipleScore.fromDict(dict).ethical).toBe(SEED_DICT_EXAMPLES.roundTrip.ethical);
  });
  it("defaults missing keys to 1.0", () => {
    const partial = PrincipleScore.fromDict(SEED_DICT_EXAMPLES.partial.input);
    expect(partial.ethical).toBe(SEED_DICT_EXAMPLES.partial.ethical);
    expect(partial.composable).toBe(SEED_DICT_EXAMPLES.partial.composable);
  });
  it("ignores unknown keys, as kgents' from_dict does, and names them", () => {
    expect(PrincipleScore.fromDict({ ethics: 0.5, ethical: 0.8 }).toDict()).toEqual({
      tasteful: 1,
      curated: 1,
      ethical: 0.8,
      joy_inducing: 1,
      composable: 1,
      heterarchical: 1,
      generative: 1,
    });
    expect(readScoreDict({ ethics: 0.5, ethical: 0.8 }).ignored_keys).toEqual(["ethics"]);
  });
  it.each([
    [{ ethical: 1.5 }, /ethical: must be between 0 and 1/],
    [{ ethical: null }, /ethical: must be a number/],
    [{ ethical: -0.1 }, /ethical: must be between 0 and 1/],
    [{ ethical: "high" }, /ethical: must be a number/],
    [[0.5], /expected object/],
  ])("rejects %j", (input, message) => {
    expect(() => PrincipleScore.fromDict(input)).toThrow(ScoreDictError);
    expect(() => PrincipleScore.fromDict(input)).toThrow(message);
  });
});

describe("reasoning", () => {
  it("says which rule lowered which score and why", () => {
    const { reasoning, reasons } = constitutionalReward(
      "send_message",
      {
        response: "Done!",
        tools: Array.from({ length: 8 }, (_, i) => ({ name: `t${i}` })),
        tools_passed: false,
        context_utilization: 0.95,
      },
      true,
    );
    expect(Object.keys(reasons).sort()).toEqual([
      "composable",
      "ethical",
      "generative",
      "joy_inducing",
    ]);
    expect(reasoning).toMatch(
      /^send_message: ethical 0\.5: files were changed but the failed tools were not acknowledged; /,
    );
    expect(reasoning).toContain("composable 0.7: 8 tools used, 3 over the 5 that compose cleanly");
    expect(reasoning).toContain("joy_inducing 0.625: the response is 5 characters");
    expect(reasoning).toContain("generative 0.75: context 95% used");
  });
  it("says so when nothing was lowered", () => {
    expect(
      constitutionalReward("send_message", { response: "A complete and careful answer." })
        .reasoning,
    ).toBe("send_message: every principle scored 1.0.");
  });
  it("applies overrides and says so", () => {
    const { score, reasons } = constitutionalReward(
      "send_message",
      { response: "A complete and careful answer." },
      false,
      { tasteful: 0.4 },
    );
    expect(score.tasteful).toBe(0.4);
    expect(reasons.tasteful).toBe("tasteful 0.4: set by override");
  });
});
