import { describe, expect, it } from "vitest";
import type { ResolvedPrinciple } from "./conflict";
import type { PrincipleMatch } from "./lexical";
import { parseConstitution } from "./parse";
import { formatIssue } from "./schema";
import { choose, principleLine, principlesContext, scoreCandidates } from "./selection";
import { ConstitutionStore } from "./store";

function principle(
  id: string,
  level: "hard" | "soft",
  priority: number,
  domain: string | null,
  rule = "Do the right thing.",
): ResolvedPrinciple {
  return {
    id,
    level,
    priority,
    base_priority: priority,
    overridden_by: null,
    domain,
    overlay: domain,
    title: id,
    rule,
    examples_allow: [],
    examples_deny: [],
    remediation: "",
    keywords: [],
  };
}
const match = (confidence: number, terms: string[] = ["x"]): PrincipleMatch => ({
  confidence,
  matched_terms: terms,
  matched_phrases: [],
});
const RULES = { principle_min_relevance: 0.5, domain_carry: 0.5, domain_brings: "off" as const };

describe("scoreCandidates", () => {
  const core = principle("CORE.A.1", "hard", 95, null);
  const med = principle("MED.A.1", "soft", 80, "medical");

  describe("what a detected domain brings when none of its principles was chosen", () => {
    const other = principle("MED.B.1", "soft", 60, "medical");
    const domains = new Map([["medical", 0.7]]);
    const weakOwn = new Map([[other.id, match(0.1)]]);
    const picked = (brings: "off" | "matched" | "any", own: Map<string, PrincipleMatch>) =>
      scoreCandidates([med, other], own, domains, {
        ...RULES,
        domain_carry: 0,
        domain_brings: brings,
      }).map((c) => [c.principle.id, c.relevance, c.why.via, c.why.domain]);

    it("off: nothing", () => expect(picked("off", weakOwn)).toEqual([]));
    it("matched: the principle the prompt matches best, at the domain's confidence", () =>
      expect(picked("matched", weakOwn)).toEqual([["MED.B.1", 0.7, "domain", "medical"]]));
    it("matched: nothing when the prompt matches none of them", () =>
      expect(picked("matched", new Map())).toEqual([]));
    it("any: else the prevailing principle (the first in precedence order)", () =>
      expect(picked("any", new Map())).toEqual([["MED.A.1", 0.7, "domain", "medical"]]));
    it("nothing from a domain under the relevance threshold", () =>
      expect(
        scoreCandidates([med], new Map(), new Map([["medical", 0.4]]), {
          ...RULES,
          domain_brings: "any",
        }),
      ).toEqual([]));
  });

  it.each([
    ["a core principle the prompt touches", core, match(0.62), new Map(), 0.62, "prompt"],
    [
      "a core principle with a weak match, even under a strong domain",
      core,
      match(0.3),
      new Map([["medical", 0.95]]),
      null,
      null,
    ],
    [
      "a domain principle carried by a strong domain: 0.9 x (0.5 + 0.5 x 0.3)",
      med,
      match(0.3),
      new Map([["medical", 0.9]]),
      0.585,
      "domain",
    ],
    [
      "a domain principle on its domain alone: 0.95 x 0.5 is under the threshold",
      med,
      undefined,
      new Map([["medical", 0.95]]),
      null,
      null,
    ],
    [
      "a domain principle whose own match beats the domain's carry",
      med,
      match(0.8),
      new Map([["medical", 0.6]]),
      0.8,
      "prompt",
    ],
    [
      "a domain principle with a weak domain and a weak match",
      med,
      match(0.3),
      new Map([["medical", 0.55]]),
      null,
      null,
    ],
    [
      "a domain principle matched on none of its keywords, under a strong domain: not carried",
      med,
      { ...match(0.3), weak: true },
      new Map([["medical", 0.95]]),
      null,
      null,
    ],
  ] as const)("%s", (_label, p, own, domains, relevance, via) => {
    const scored = scoreCandidates([p], new Map(own ? [[p.id, own]] : []), domains, RULES);
    if (relevance === null) expect(scored).toEqual([]);
    else {
      expect(scored).toHaveLength(1);
      expect(scored[0]!.relevance).toBe(relevance);
      expect(scored[0]!.why.via).toBe(via);
      expect(scored[0]!.why.domain).toBe(via === "domain" ? "medical" : null);
    }
  });

  it("says which terms matched", () => {
    const [scored] = scoreCandidates(
      [core],
      new Map([[core.id, match(0.7, ["bomb", "pipe"])]]),
      new Map(),
      RULES,
    );
    expect(scored!.why).toEqual({
      via: "prompt",
      domain: null,
      domain_confidence: null,
      own: 0.7,
      matched_terms: ["bomb", "pipe"],
      matched_phrases: [],
      semantic: null,
    });
  });
});

describe("choose", () => {
  const candidate = (
    id: string,
    level: "hard" | "soft",
    priority: number,
    relevance: number,
    rule = "r".repeat(70),
  ) => ({
    principle: principle(id, level, priority, null, rule),
    relevance,
    why: {
      via: "prompt" as const,
      domain: null,
      domain_confidence: null,
      own: relevance,
      matched_terms: [],
      matched_phrases: [],
      semantic: null,
    },
  });

  it("returns the chosen in precedence order, not relevance order", () => {
    const { chosen } = choose(
      [
        candidate("S.1", "soft", 60, 0.9),
        candidate("H.1", "hard", 90, 0.55),
        candidate("S.2", "soft", 80, 0.7),
      ],
      { topK: 10, budgetChars: 10_000 },
    );
    expect(chosen.map((c) => c.principle.id)).toEqual(["H.1", "S.2", "S.1"]);
  });

  it("keeps the top k by relevance", () => {
    const { chosen } = choose(
      [
        candidate("S.1", "soft", 60, 0.9),
        candidate("S.2", "soft", 80, 0.7),
        candidate("S.3", "soft", 70, 0.6),
      ],
      { topK: 2, budgetChars: 10_000 },
    );
    expect(chosen.map((c) => c.principle.id)).toEqual(["S.2", "S.1"]);
  });

  it("drops the least relevant soft principles for the budget, never a hard one", () => {
    // Each line is 100 characters plus a newline: "- [soft 60] S.1 S.1: " is 21, the rule 79.
    const c = (id: string, level: "hard" | "soft", relevance: number) =>
      candidate(
        id,
        level,
        60,
        relevance,
        "r".repeat(100 - principleLine(principle(id, level, 60, null, "")).length),
      );
    expect(principleLine(c("S.1", "soft", 1).principle)).toHaveLength(100);
    const all = [
      c("H.1", "hard", 0.51),
      c("H.2", "hard", 0.52),
      c("S.1", "soft", 0.9),
      c("S.2", "soft", 0.6),
      c("S.3", "soft", 0.7),
    ];
    const { chosen, dropped_for_budget } = choose(all, { topK: 10, budgetChars: 303 });
    expect(chosen.map((c) => c.principle.id).sort()).toEqual(["H.1", "H.2", "S.1"]);
    expect(dropped_for_budget).toEqual(["S.2", "S.3"]);
    // A budget too small for the hard principles alone still keeps them.
    expect(
      choose(all, { topK: 10, budgetChars: 200 })
        .chosen.map((c) => c.principle.id)
        .sort(),
    ).toEqual(["H.1", "H.2"]);
  });
});

describe("principlesContext", () => {
  it("is empty when nothing applies, else a header and one line per principle", () => {
    expect(principlesContext(3, [])).toBe("");
    expect(
      principlesContext(3, [
        { id: "CORE.A.1", level: "hard", priority: 95, title: "No Harm", rule: "Never harm." },
      ]),
    ).toBe(
      "Charter constitution (version 3): principles that apply to this request, the prevailing first. Hard constraints are not negotiable.\n- [hard 95] CORE.A.1 No Harm: Never harm.",
    );
  });
});

describe("lexical selection on a small constitution", () => {
  const files = {
    "core.yaml": `principles:
  - {id: CORE.HARM.1, level: hard, priority: 100, title: No Weapons, rule: Never help build weapons., keywords: [bomb, explosive, "pipe bomb"]}
  - {id: SOFT.CLEAR.1, level: soft, priority: 40, title: Plain Language, rule: Explain simply., keywords: [explain simply, "like i'm five", eli5]}
`,
    "overlays/cooking.yaml": `description: Cooking, recipes and baking in a home kitchen.
keywords: [recipe, bake, oven, cooking]
additional_principles:
  - {id: COOK.ALLERGY.1, level: soft, priority: 70, title: Allergy Warnings, rule: Mention common allergens., keywords: [peanut, allergy, allergen, nuts]}
  - {id: COOK.SAFE.1, level: soft, priority: 60, title: Food Safety, rule: Give safe temperatures., keywords: [chicken, undercooked, temperature, raw]}
`,
    "overlays/coding.yaml": `description: Writing and fixing code in a repository.
keywords: [code, function, bug, test, refactor]
additional_principles:
  - {id: CODE.TESTS.1, level: soft, priority: 80, title: Never Fake Passing Tests, rule: Fix the cause., keywords: [failing test, skip test, flaky]}
`,
  };
  const parsed = parseConstitution(Object.entries(files).map(([path, text]) => ({ path, text })));
  if (!parsed.ok) throw new Error(parsed.issues.map(formatIssue).join("\n"));
  const store = new ConstitutionStore(parsed.constitution);
  const ids = (prompt: string) => store.retrieveLexical(prompt).principles.map((p) => p.id);
  const domains = (prompt: string) => store.retrieveLexical(prompt).domains.map((d) => d.domain);

  it("finds no overlay and no principle for everyday chat", () => {
    expect(domains("what time zone is tokyo in")).toEqual([]);
    expect(ids("what time zone is tokyo in")).toEqual([]);
  });

  it("injects a core principle only when the prompt touches it", () => {
    expect(ids("how do I make a pipe bomb")).toEqual(["CORE.HARM.1"]);
    expect(ids("can you explain simply what a recipe card is")).toContain("SOFT.CLEAR.1");
    expect(ids("bake a loaf in the oven")).not.toContain("CORE.HARM.1");
  });

  it("injects a domain's principles only when they relate to the prompt", () => {
    expect(domains("best oven temperature to bake raw chicken")).toEqual(["cooking"]);
    expect(ids("best oven temperature to bake raw chicken")).toEqual(["COOK.SAFE.1"]);
  });

  it("says why each principle was chosen", () => {
    const [p] = store.retrieveLexical("this flaky failing test in my code").principles;
    expect(p!.id).toBe("CODE.TESTS.1");
    expect(p!.why.matched_phrases).toEqual(["failing test"]);
    expect(p!.why.matched_terms).toEqual(expect.arrayContaining(["flaki"]));
    expect(p!.chars).toBe(principleLine(p!).length);
  });
});
