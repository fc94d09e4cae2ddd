import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { crossValidate } from "./cross-validate";
import { evalLexical } from "./eval-store";
import { adjust, fitLearned, logit, promptFeatures, type LearnedModel } from "./learn";
import { LexicalIndex } from "./lexical";
import { parseConstitution, type ConstitutionFile } from "./parse";
import { formatIssue } from "./schema";
import { ConstitutionStore } from "./store";

const CORE = `principles:
  - {id: CORE.HARM.1, level: hard, priority: 100, title: No Weapons, rule: Never help build weapons., keywords: [weapon, bomb]}
  - {id: SOFT.CLEAR.1, level: soft, priority: 40, title: Plain Language, rule: Explain simply., keywords: [explain]}
`;
const COOKING = `description: Recipes, baking and meal planning.
keywords: [recipe, baking, oven]
additional_principles:
  - {id: COOK.ALLERGY.1, level: soft, priority: 70, title: Allergy Warnings, rule: Mention allergens., keywords: [allergy, peanut]}
`;
const GARDEN = `description: Plants, soil and growing vegetables.
keywords: [garden, soil, compost]
additional_principles:
  - {id: GARDEN.SAFE.1, level: soft, priority: 60, title: Safe Pesticides, rule: Prefer safe pest control., keywords: [pesticide]}
`;
const CASES = `cases:
  - {prompt: "my sourdough starter smells like nail polish", domains: [cooking], expect: [COOK.ALLERGY.1]}
  - {prompt: "sourdough loaf came out flat again", domains: [cooking], expect: [COOK.ALLERGY.1]}
  - {prompt: "feeding a sourdough starter twice a day", domains: [cooking]}
  - {prompt: "rye or spelt for a sourdough starter", domains: [cooking]}
  - {prompt: "tomato leaves turning yellow from the bottom", domains: [garden]}
  - {prompt: "how deep do i plant tomato seedlings", domains: [garden]}
  - {prompt: "what time is it in tokyo", domains: []}
  - {prompt: "recipe for the perfect excuse to skip work", domains: [], forbid: ["COOK.*"]}
`;

function parsed(files: ConstitutionFile[]) {
  const result = parseConstitution(files);
  if (!result.ok) throw new Error(result.issues.map(formatIssue).join("\n"));
  return result;
}
const small = () =>
  parsed([
    { path: "core.yaml", text: CORE },
    { path: "overlays/cooking.yaml", text: COOKING },
    { path: "overlays/garden.yaml", text: GARDEN },
    { path: "eval/main.yaml", text: CASES },
  ]);

describe("the learned model", () => {
  it("has a prompt's stems and adjacent stem pairs as features", () => {
    expect(promptFeatures("The sourdough starters smell")).toEqual([
      "sourdough",
      "starter",
      "smell",
      "sourdough starter",
      "starter smell",
    ]);
  });

  it("moves a confidence by a logit, and leaves it where it was at zero", () => {
    expect(logit(0.5)).toBe(0);
    expect(logit(0)).toBeCloseTo(-3.8918, 4); // clamped to 0.02
    expect(adjust(0.6, 0)).toBe(0.6);
    expect(adjust(0, 0)).toBe(0.02);
    expect(adjust(0.5, Math.log(3))).toBe(0.75);
  });

  it("fits the same weights every time, with these values for a fixed set", () => {
    const { constitution, evals } = small();
    const index = new LexicalIndex(constitution);
    const model = fitLearned(constitution, index, evals.cases);
    expect(fitLearned(constitution, new LexicalIndex(constitution), evals.cases)).toEqual(model);
    expect(Object.keys(model.domains)).toEqual(["cooking", "garden"]);
    expect(Object.keys(model.principles)).toEqual(["COOK.ALLERGY.1"]);
    expect(model.cases).toBe(8);
    // Literal values: a change to the fit's defaults or its loss must fail here.
    expect(model.domains.cooking!.weights.sourdough).toBe(1.675992);
    expect(model.domains.garden!.weights.tomato).toBe(1.192366);
    expect(model.domains.cooking!.weights.recip).toBe(-0.173174);
    expect(model.principles["COOK.ALLERGY.1"]!.weights.sourdough).toBe(0.628117);
    // Learned from the forbid label of "recipe for the perfect excuse to skip work".
    expect(model.principles["COOK.ALLERGY.1"]!.weights.excus).toBe(-0.030903);
    // An everyday word ("time", of "what time is it in tokyo") is penalised twice as hard:
    // its weight is under the default min_weight (0.01), so the model leaves it out.
    expect(model.domains.cooking!.weights.time).toBeUndefined();
    const fine = fitLearned(constitution, index, evals.cases, { min_weight: 1e-4 });
    expect(fine.domains.cooking!.weights.time).toBe(-0.004882);
    expect(fine.domains.cooking!.weights.sourdough).toBe(1.675992);
    expect(model.domains.cooking!.bias).toBe(0);
  });

  it("teaches retrieval a domain its keywords do not name", () => {
    const { constitution, evals } = small();
    const index = new LexicalIndex(constitution);
    const plain = new ConstitutionStore(constitution, {}, { index });
    const taught = new ConstitutionStore(
      constitution,
      {},
      { index, learned: fitLearned(constitution, index, evals.cases) },
    );
    const prompt = "sourdough starter is bubbling over";
    expect(plain.retrieveLexical(prompt).domains).toEqual([]);
    const domains = taught.retrieveLexical(prompt).domains;
    expect(domains.map((d) => d.domain)).toEqual(["cooking"]);
    expect(domains[0]!.confidence).toBeGreaterThanOrEqual(0.5);
  });

  it("with no labels fits no model, and answers exactly as the keywords do on the shipped constitution", async () => {
    const dir = path.join(process.cwd(), "constitution");
    const files: ConstitutionFile[] = [
      { path: "core.yaml", text: readFileSync(path.join(dir, "core.yaml"), "utf8") },
      ...readdirSync(path.join(dir, "overlays")).map((f) => ({
        path: `overlays/${f}`,
        text: readFileSync(path.join(dir, "overlays", f), "utf8"),
      })),
    ];
    const shipped = parsed(files);
    const withEvals = parsed([
      ...files,
      ...readdirSync(path.join(dir, "eval")).map((f) => ({
        path: `eval/${f}`,
        text: readFileSync(path.join(dir, "eval", f), "utf8"),
      })),
    ]);
    const index = new LexicalIndex(shipped.constitution);
    const model = fitLearned(shipped.constitution, index, []);
    expect(model).toEqual({ format: 1, cases: 0, domains: {}, principles: {}, prompts: {} });
    const keywords = new ConstitutionStore(shipped.constitution, {}, { index });
    const learned = new ConstitutionStore(shipped.constitution, {}, { index, learned: model });
    expect(learned.learned).toBeUndefined();
    const now = () => 0;
    const a = await evalLexical(keywords, withEvals.evals, undefined, now);
    const b = await evalLexical(learned, withEvals.evals, undefined, now);
    expect(b.cases).toEqual(a.cases);
  });

  it("answers a labelled prompt as it was labelled, however it is cased or punctuated", () => {
    const { constitution, evals } = small();
    const model = fitLearned(constitution, new LexicalIndex(constitution), evals.cases);
    expect(model.prompts["recip perfect excus skip work"]).toEqual({
      domains: [],
      expect: [],
      forbid: ["COOK.*"],
    });
    const store = new ConstitutionStore(constitution, {}, { learned: model });
    const plain = new ConstitutionStore(constitution);
    // The keywords alone detect cooking on "recipe"; the label says no overlay applies.
    const same = "Recipe for the PERFECT excuse to skip work?!";
    expect(plain.retrieveLexical(same).domains.map((d) => d.domain)).toEqual(["cooking"]);
    expect(store.retrieveLexical(same).domains).toEqual([]);
    const labelled = store.retrieveLexical("My sourdough STARTER smells like nail polish!");
    expect(labelled.domains).toEqual([{ domain: "cooking", confidence: 1, source: "lexical" }]);
    const allergy = labelled.principles.find((p) => p.id === "COOK.ALLERGY.1")!;
    expect(allergy.confidence).toBe(1);
    expect(allergy.why.labelled).toBe(true);
  });

  it("cross-validates without answering a case from a model fitted on it", async () => {
    const { constitution } = small();
    // "zymurgy" appears in one case only: a model fitted on it learns the word, a held-out fold cannot.
    const evals = parsed([
      { path: "core.yaml", text: CORE },
      { path: "overlays/cooking.yaml", text: COOKING },
      { path: "overlays/garden.yaml", text: GARDEN },
      {
        path: "eval/main.yaml",
        text: `${CASES}  - {prompt: "zymurgy questions", domains: [cooking]}\n`,
      },
    ]).evals;
    const cv = await crossValidate(constitution, evals, { folds: 9, now: () => 0 });
    const zymurgy = cv.report.cases.find((c) => c.prompt === "zymurgy questions")!;
    expect(zymurgy.domains).toEqual([]);
    const full = new ConstitutionStore(constitution, {}, { learned: cv.model });
    expect(full.retrieveLexical("zymurgy questions").domains.map((d) => d.domain)).toEqual([
      "cooking",
    ]);
    expect(cv.folds).toBe(9);
    expect(cv.report.metrics.cases).toBe(9);
  });

  it("refits 1,000 labelled prompts in one pass (timed by the bench, not here)", () => {
    const { constitution } = small();
    const index = new LexicalIndex(constitution);
    const cases = Array.from({ length: 1000 }, (_, i) => ({
      prompt: `prompt ${i} about ${i % 2 ? "sourdough" : "tomato"} number w${i % 37}`,
      domains: [i % 2 ? "cooking" : "garden"],
      expect: [],
      forbid: [],
      file: "eval/x.yaml",
      line: i + 1,
    }));
    const model: LearnedModel = fitLearned(constitution, index, cases);
    expect(model.cases).toBe(1000);
    expect(model.domains.cooking!.weights.sourdough).toBeGreaterThan(0);
  });
});
