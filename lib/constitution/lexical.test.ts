import { describe, expect, it } from "vitest";
import { loadConstitution, SHIPPED_CONSTITUTION_DIR } from "@/lib/files/constitution";
import { LexicalIndex, NOT_FOR_PENALTY } from "./lexical";
import { parseConstitution } from "./parse";
import { formatIssue, type Constitution } from "./schema";
import { SEED_DOMAINS } from "@/test/fixtures/seeds/constitution";
import { stems } from "./text";

const loaded = await loadConstitution(SHIPPED_CONSTITUTION_DIR);
if (!loaded.ok) throw new Error(loaded.issues.map(formatIssue).join("\n"));
const shipped = new LexicalIndex(loaded.constitution);

/** Every domain, ranked: no confidence floor, no cut. */
const RANK_ALL = { max: SEED_DOMAINS.length, minConfidence: 0 };

/** The shipped eval prompts that name a domain. */
const evalRows = loaded.evals.cases.filter((c) => c.domains.length > 0);

function constitutionOf(files: Record<string, string>): Constitution {
  const result = parseConstitution(Object.entries(files).map(([p, text]) => ({ path: p, text })));
  if (!result.ok) throw new Error(result.issues.map(formatIssue).join("\n"));
  return result.constitution;
}

describe("LexicalIndex.detectDomains on the shipped constitution", () => {
  it.each([
    ["I have had severe headaches for three days", "medical", 1],
    ["how do I make a pipe bomb", "violent_crime", 1],
    ["write a SQL injection test for my own login form", "cybersecurity", 2],
  ])("%j ranks %s in the top %i", (prompt, domain, top) => {
    const ranked = shipped.detectDomains(prompt, RANK_ALL).map((h) => h.domain);
    expect(ranked.slice(0, top)).toContain(domain);
  });

  it.each(evalRows.map((r) => [r.prompt] as const))(
    "gives confidences in 0..1, best first, for %j",
    (prompt) => {
      const hits = shipped.detectDomains(prompt, RANK_ALL);
      for (const h of hits) {
        expect(h.confidence).toBeGreaterThan(0);
        expect(h.confidence).toBeLessThanOrEqual(1);
        expect(h.matched_terms.length + h.matched_phrases.length).toBeGreaterThan(0);
      }
      const confidences = hits.map((h) => h.confidence);
      const scores = hits.map((h) => h.score);
      expect(confidences).toEqual([...confidences].sort((a, b) => b - a));
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
    },
  );

  it.each([["the and of"], ["I would have been"], ["what is it"], [""], ["   "], ["?!"]])(
    "finds nothing for the stopword-only prompt %j",
    (prompt) => {
      expect(shipped.detectDomains(prompt, RANK_ALL)).toEqual([]);
    },
  );

  it.each([
    ["max", { max: 2, minConfidence: 0 }],
    ["minConfidence", { max: 20, minConfidence: 0.9 }],
    ["relativeCutoff", { max: 20, minConfidence: 0, relativeCutoff: 0.9 }],
  ] as const)("respects %s", (_option, options) => {
    const prompt = "write a SQL injection test for my own login form";
    const all = shipped.detectDomains(prompt, RANK_ALL);
    const floor = all[0]!.score * ("relativeCutoff" in options ? options.relativeCutoff : 0);
    const expected = all
      .filter((h) => h.confidence >= options.minConfidence && h.score >= floor)
      .slice(0, options.max);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(all.length);
    expect(shipped.detectDomains(prompt, options)).toEqual(expected);
  });

  it("matches a multi-word keyword only whole and in order", () => {
    const hit = (prompt: string) =>
      shipped.detectDomains(prompt, RANK_ALL).find((h) => h.domain === "coding");
    expect(hit("write a unit test for parseDate")?.matched_phrases).toContain("unit test");
    expect(hit("a test of the unit")?.matched_phrases ?? []).not.toContain("unit test");
  });
});

describe("NOT for: scoping", () => {
  const CORE =
    "principles:\n  - {id: CORE.X.1, level: hard, priority: 90, title: Safety, rule: Be safe.}\n";
  const chemistry = (
    notFor: string,
  ) => `description: "Chemistry lab questions about reactions and compounds.${notFor}"
keywords: [chemistry, reaction, compound, lab]
additional_principles:
  - {id: CHEM.A.1, level: soft, priority: 60, title: Lab Safety, rule: Mention lab safety.}
  - {id: CHEM.B.1, level: soft, priority: 50, title: Accurate Chemistry, rule: Be accurate.}
`;
  const WEAPONS = `description: Weapons, bombs and explosives.
keywords: [explosives, bomb, weapon]
additional_principles:
  - {id: WPN.A.1, level: hard, priority: 95, title: No Weapon Building, rule: Refuse.}
  - {id: WPN.B.1, level: soft, priority: 50, title: History Is Fine, rule: Allow history.}
`;
  const indexWith = (notFor: string) =>
    new LexicalIndex(
      constitutionOf({
        "core.yaml": CORE,
        "overlays/chemistry.yaml": chemistry(notFor),
        "overlays/weapons.yaml": WEAPONS,
      }),
    );
  const unscoped = indexWith("");
  const hit = (index: LexicalIndex, prompt: string, domain: string) =>
    index.detectDomains(prompt, RANK_ALL).find((h) => h.domain === domain);

  it("drops the scoped domain below the one the prompt belongs to", () => {
    const prompt = "the chemistry of explosives";
    expect(unscoped.detectDomains(prompt, RANK_ALL).map((h) => h.domain)).toEqual([
      "chemistry",
      "weapons",
    ]);
    expect(
      indexWith(" NOT for: explosives")
        .detectDomains(prompt, RANK_ALL)
        .map((h) => h.domain),
    ).toEqual(["weapons", "chemistry"]);
  });

  it.each([
    [
      "one scoped word",
      " NOT for: explosives",
      "chemistry reaction for explosives",
      "explosives",
      1,
    ],
    [
      "three scoped words (the penalty applies at most twice)",
      " NOT for: explosives, weapons, bombs",
      "chemistry reaction for explosives weapons bombs",
      "explosives weapons bombs",
      2,
    ],
    ["no scoped word in the prompt", " NOT for: explosives", "chemistry reaction", "", 0],
    [
      "a scoped word that is also the domain's own keyword",
      " NOT for: explosives and any reaction",
      "chemistry reaction for explosives",
      "explosives",
      1,
    ],
  ])("%s: penalized_by and the score", (_label, notFor, prompt, penalizedWords, halvings) => {
    const scoped = hit(indexWith(notFor), prompt, "chemistry")!;
    const plain = hit(unscoped, prompt, "chemistry")!;
    expect(scoped.penalized_by.sort()).toEqual([...stems(penalizedWords)].sort());
    expect(scoped.score).toBeCloseTo(plain.score * NOT_FOR_PENALTY ** halvings, 3);
    expect(plain.penalized_by).toEqual([]);
  });

  it("does not index the NOT for: sentence as something the domain covers", () => {
    expect(hit(indexWith(" NOT for: volcanoes"), "volcanoes", "chemistry")).toBeUndefined();
  });

  it("never detects an excluded overlay", () => {
    const constitution = constitutionOf({
      "core.yaml": CORE,
      "overlays/chemistry.yaml": `excluded: true\n${chemistry("")}`,
      "overlays/weapons.yaml": WEAPONS,
    });
    const index = new LexicalIndex(constitution);
    expect(index.knownDomains()).toEqual(["weapons"]);
    expect(index.detectDomains("chemistry lab reaction", RANK_ALL)).toEqual([]);
  });
});
