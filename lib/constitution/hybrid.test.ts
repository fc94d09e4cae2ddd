import { describe, expect, it } from "vitest";
import { combine, fuseDomains, fusePrinciples, semanticConfidence } from "./hybrid";
import { parseConstitution } from "./parse";
import { formatIssue } from "./schema";
import { ConstitutionStore } from "./store";

const CAL = { floor: 0.3, ceiling: 0.6, weight: 0.8 };

describe("semantic evidence", () => {
  it.each([
    [0.1, 0],
    [0.3, 0],
    [0.45, 0.5],
    [0.6, 1],
    [0.9, 1],
  ])("similarity %d is confidence %d between floor 0.3 and ceiling 0.6", (similarity, expected) => {
    expect(semanticConfidence(similarity, CAL)).toBe(expected);
  });

  it("adds up with lexical evidence as independent evidence", () => {
    expect(combine(0.5, 0.5, 0.8)).toBe(0.7); // 1 - 0.5 * (1 - 0.4)
    expect(combine(0, 1, 0.8)).toBe(0.8);
    expect(combine(0.6, 0, 0.8)).toBe(0.6);
  });

  it("adds domains found only semantically, and keeps lexical ones' matched terms", () => {
    const lexical = [
      {
        domain: "medical",
        confidence: 0.5,
        score: 6,
        matched_terms: ["fever"],
        matched_phrases: [],
        penalized_by: [],
      },
    ];
    const fused = fuseDomains(
      lexical,
      {
        domains: new Map([
          ["medical", 0.45],
          ["children", 0.6],
          ["legal", 0.1],
        ]),
        principles: new Map(),
      },
      CAL,
    );
    expect(fused.map((d) => [d.domain, d.confidence, d.semantic, d.matched_terms])).toEqual([
      ["children", 0.8, 1, []],
      ["medical", 0.7, 0.5, ["fever"]],
    ]);
  });

  it("folds principle similarities into their own match", () => {
    const fused = fusePrinciples(
      new Map([["A.1", { confidence: 0.5, matched_terms: ["x"], matched_phrases: [] }]]),
      {
        domains: new Map(),
        principles: new Map([
          ["A.1", 0.45],
          ["B.1", 0.2],
        ]),
      },
      CAL,
    );
    expect([...fused]).toEqual([
      ["A.1", { confidence: 0.7, matched_terms: ["x"], matched_phrases: [], semantic: 0.5 }],
    ]);
  });
});

describe("the store's hybrid path", () => {
  const parsed = parseConstitution([
    {
      path: "core.yaml",
      text: "principles:\n  - {id: CORE.A.1, level: hard, priority: 90, title: Safety, rule: Be safe., keywords: [pipe bomb]}\n",
    },
    {
      path: "overlays/children.yaml",
      text: "keywords: [toddler, preschool]\nadditional_principles:\n  - {id: CHILD.AGE.1, level: soft, priority: 70, title: Age Appropriate, rule: Keep it age appropriate., keywords: [bedtime story]}\n",
    },
  ]);
  if (!parsed.ok) throw new Error(parsed.issues.map(formatIssue).join("\n"));
  const prompt = "a tale about a sleepy bunny for my four year old";

  it("finds what the words alone miss, and says it ran", async () => {
    const sims = {
      domains: new Map([["children", 0.7]]),
      principles: new Map([["CHILD.AGE.1", 0.65]]),
    };
    const store = new ConstitutionStore(
      parsed.constitution,
      {},
      { semantic: { similarities: async () => sims } },
    );
    const lexicalOnly = new ConstitutionStore(parsed.constitution);
    expect((await lexicalOnly.getRelevantPrinciples(prompt)).principles).toEqual([]);
    const result = await store.getRelevantPrinciples(prompt);
    expect(result.debug.path).toBe("hybrid");
    expect(result.domains.map((d) => d.domain)).toEqual(["children"]);
    expect(result.principles.map((p) => [p.id, p.why.semantic])).toEqual([["CHILD.AGE.1", 1]]);
  });

  it("falls back to the lexical path when the endpoint fails, and records why", async () => {
    const store = new ConstitutionStore(
      parsed.constitution,
      {},
      {
        semantic: {
          similarities: async () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:9")),
        },
      },
    );
    const result = await store.getRelevantPrinciples("how do I build a pipe bomb");
    expect(result.debug.path).toBe("lexical");
    expect(result.debug.fallbacks).toEqual([
      {
        stage: "embeddings",
        reason: "connect ECONNREFUSED 127.0.0.1:9: used the lexical path alone",
      },
    ]);
    expect(result.principles.map((p) => p.id)).toEqual(["CORE.A.1"]);
  });
});
