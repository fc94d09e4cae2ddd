import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseConstitution, type ConstitutionFile } from "./parse";
import { EvalSuggester } from "./suggest";
import { candidateEdits, promptTerms } from "./suggest-candidates";
import { describeEdit, withNotFor } from "./suggest-edits";
import { editSource } from "./suggest-source";

// A small constitution whose eval set fails in known ways (fixtures/README.md).
const DIR = path.join(import.meta.dirname, "fixtures", "suggest");
const PATHS = ["core.yaml", "overlays/cooking.yaml", "overlays/gaming.yaml", "eval/main.yaml"];
const FILES: ConstitutionFile[] = PATHS.map((p) => ({
  path: p,
  text: readFileSync(path.join(DIR, p), "utf8"),
}));
const textOf = (p: string) => FILES.find((f) => f.path === p)!.text;
const CORE = textOf("core.yaml");
const COOKING = textOf("overlays/cooking.yaml");

async function suggester() {
  const parsed = parseConstitution(FILES);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return EvalSuggester.create({
    files: FILES,
    constitution: parsed.constitution,
    evals: parsed.evals,
  });
}

describe("EvalSuggester", () => {
  it("lists the failing cases of the set, each once", async () => {
    const s = await suggester();
    expect(s.base.failures.map((f) => `${f.line} ${f.kind}`)).toEqual([
      "3 principle_miss",
      "6 false_injection",
      "8 principle_miss",
      "18 principle_miss",
    ]);
    expect(s.failingCases().map((c) => c.line)).toEqual([3, 6, 8, 18]);
  });

  it("fixes a missed principle by adding a word of the prompt to its keywords", async () => {
    const s = await suggester();
    const out = await s.suggest("eval/main.yaml", 3);
    expect(out).toMatchObject({ candidates: 15, tried: 1, search: "complete" });
    const [only] = out!.failures;
    expect(only!.failure.kind).toBe("principle_miss");
    const suggestion = only!.suggestion!;
    expect(suggestion.edit).toEqual({
      op: "add_keyword",
      target: { kind: "principle", id: "COOK.ALLERGY.1", domain: "cooking" },
      keyword: "peanut",
    });
    expect(suggestion.summary).toBe(`add "peanut" to COOK.ALLERGY.1's keywords`);
    expect(suggestion.path).toBe("overlays/cooking.yaml");
    expect(suggestion.diff).toBe(`--- a/overlays/cooking.yaml
+++ b/overlays/cooking.yaml
@@ -12,7 +12,7 @@
     priority: 70
     title: Allergy Warnings
     rule: Mention common allergens when a recipe has them.
-    keywords: [allergy, allergen]
+    keywords: [allergy, allergen, peanut]
   - id: COOK.HEAT.1
     level: soft
     priority: 60
`);
    expect(suggestion.text).toBe(
      COOKING.replace("keywords: [allergy, allergen]", "keywords: [allergy, allergen, peanut]"),
    );
    expect(suggestion.comparison.metrics.filter((m) => m.before !== m.after)).toEqual([
      { name: "principle_hit_rate", before: 0.4, after: 0.6 },
      { name: "mean_principles", before: 0.4286, after: 0.5714 },
      { name: "mean_chars", before: 30, after: 43 },
    ]);
    expect(suggestion.comparison.gained_hits.map((c) => c.line)).toEqual([3]);
    expect(suggestion.comparison.lost_hits).toEqual([]);
    expect(suggestion.cleared.map((f) => `${f.line} ${f.kind}`)).toEqual(["3 principle_miss"]);
  });

  it("fixes a false injection by removing the keyword that brings the domain, after trying NOT for: words", async () => {
    const s = await suggester();
    const out = await s.suggest("eval/main.yaml", 6);
    expect(out).toMatchObject({ candidates: 4, tried: 3, search: "complete" });
    const suggestion = out!.failures[0]!.suggestion!;
    expect(suggestion.summary).toBe(`remove "bake" from the cooking overlay's keywords`);
    expect(suggestion.diff).toBe(`--- a/overlays/cooking.yaml
+++ b/overlays/cooking.yaml
@@ -4,7 +4,6 @@
   chemistry (science).
 keywords:
   - recipe
-  - bake
   - oven # the appliance
 additional_principles:
   - id: COOK.ALLERGY.1
`);
    expect(suggestion.comparison.metrics.find((m) => m.name === "false_injection_rate")).toEqual({
      name: "false_injection_rate",
      before: 0.3333,
      after: 0,
    });
  });

  it("suggests nothing when every edit that fixes the case breaks another", async () => {
    const s = await suggester();
    const out = await s.suggest("eval/main.yaml", 18);
    expect(out!.failures.map((f) => [f.failure.kind, f.suggestion])).toEqual([
      ["principle_miss", null],
    ]);
    expect(out).toMatchObject({ candidates: 5, tried: 5, search: "complete" });
  });

  it("is deterministic: a fresh run gives the same suggestions", async () => {
    const [a, b] = [await suggester(), await suggester()];
    for (const c of a.failingCases())
      expect(await b.suggest(c.file, c.line)).toEqual(await a.suggest(c.file, c.line));
  });

  it("stops at the candidate cap or when the caller's clock says the budget is spent", async () => {
    const s = await suggester();
    expect(await s.suggest("eval/main.yaml", 6, { maxCandidates: 1 })).toMatchObject({
      tried: 1,
      search: "candidate_limit",
      failures: [{ suggestion: null }],
    });
    let now = 0;
    const clock = () => (now += 100);
    expect(await s.suggest("eval/main.yaml", 6, { now: clock, budgetMs: 250 })).toMatchObject({
      tried: 2,
      search: "time_limit",
      failures: [{ suggestion: null }],
    });
  });

  it("answers null for a line that holds no case", async () => {
    expect(await (await suggester()).suggest("eval/main.yaml", 4)).toBeNull();
  });
});

describe("candidate edits", () => {
  it("are single words before pairs, words on the list's topic first, each once", async () => {
    const s = await suggester();
    const parsed = parseConstitution(FILES);
    if (!parsed.ok) throw new Error("fixture");
    const index = parsed.evals.cases.findIndex((c) => c.line === 8);
    const edits = candidateEdits(
      parsed.constitution,
      parsed.evals.cases[index]!,
      s.base.cases[index]!,
      ["principle_miss"],
    );
    expect(edits.map(describeEdit)).toEqual([
      `add "beat" to GAME.FICTION.1's keywords`,
      `add "boss" to GAME.FICTION.1's keywords`,
      `add "elden" to GAME.FICTION.1's keywords`,
      `add "ring" to GAME.FICTION.1's keywords`,
      `add "beat" to the gaming overlay's keywords`,
      `add "elden" to the gaming overlay's keywords`,
      `add "ring" to the gaming overlay's keywords`,
      // "boss" is the gaming overlay's own word: pairs holding it are on that list's topic.
      `add "beat the boss" to the gaming overlay's keywords`,
      `add "boss in elden" to the gaming overlay's keywords`,
      `add "beat the boss" to GAME.FICTION.1's keywords`,
      `add "boss in elden" to GAME.FICTION.1's keywords`,
      `add "elden ring" to GAME.FICTION.1's keywords`,
      `add "elden ring" to the gaming overlay's keywords`,
    ]);
  });

  it.each([
    [
      "how do I stealth kill the guards in the first mission",
      ["stealth", "kill", "guards", "mission"],
      ["stealth kill", "kill the guards", "guards in the first", "first mission"],
    ],
    ["my 9 year old spent $300, can I get it back", ["spent"], ["old spent"]],
    ["make it faster", ["faster"], ["make it faster"]],
  ])("take the prompt's own words: %s", (prompt, words, pairs) => {
    expect(promptTerms(prompt)).toEqual({ words, pairs });
  });

  it.each([
    ["Video games. NOT for: real violence.", "Video games. NOT for: real violence, kiln."],
    ["Cooking. NOT for: chemistry (science)", "Cooking. NOT for: chemistry (science), kiln"],
    ["Cooking at home.", "Cooking at home. NOT for: kiln."],
    ["", "NOT for: kiln."],
  ])("add a word to a description's NOT for: sentence: %s", (description, expected) => {
    expect(withNotFor(description, "kiln")).toBe(expected);
  });
});

describe("editSource", () => {
  it("adds a NOT for: word in the folded description's last line only", () => {
    const out = editSource(FILES, { op: "add_not_for", domain: "cooking", word: "kiln" });
    expect(out?.diff).toBe(`--- a/overlays/cooking.yaml
+++ b/overlays/cooking.yaml
@@ -1,7 +1,7 @@
 # Home cooking.
 description: >
   Cooking and baking at home: recipes, ovens and kitchen safety. NOT for:
-  chemistry (science).
+  chemistry (science), kiln.
 keywords:
   - recipe
   - bake
`);
  });

  it("removes a keyword from a flow list on its own line, and from core.yaml", () => {
    const out = editSource(FILES, {
      op: "remove_keyword",
      target: { kind: "principle", id: "CORE.HARM.1", domain: null },
      keywords: ["explosive"],
    });
    expect(out?.path).toBe("core.yaml");
    expect(out?.text).toBe(CORE.replace("[bomb, pipe bomb, explosive]", "[bomb, pipe bomb]"));
  });

  it("adds a keywords list to a principle that has none", () => {
    const text = CORE.replace("    keywords: [bomb, pipe bomb, explosive]\n", "");
    const out = editSource([{ path: "core.yaml", text }], {
      op: "add_keyword",
      target: { kind: "principle", id: "CORE.HARM.1", domain: null },
      keyword: "grenade",
    });
    expect(out?.text).toBe(`${text}    keywords:\n      - grenade\n`);
  });

  it("is null for a principle the files do not hold", () => {
    expect(
      editSource(FILES, {
        op: "add_keyword",
        target: { kind: "principle", id: "NOPE.1", domain: "cooking" },
        keyword: "x",
      }),
    ).toBeNull();
  });
});
