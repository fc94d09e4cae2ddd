import { describe, expect, it } from "vitest";
import {
  overlayInputSchema,
  principleSchema,
  type Constitution,
  type OverlayInput,
  type PrincipleInput,
} from "./schema";
import { cosine, domainKey, principleKey, semanticDocuments, SemanticIndex } from "./semantic";

const principle = (input: Partial<PrincipleInput> & { id: string }) =>
  principleSchema.parse({
    level: "soft",
    priority: 50,
    title: `${input.id} title`,
    rule: `${input.id} rule`,
    ...input,
  });
const overlay = (domain: string, input: OverlayInput) => ({
  ...overlayInputSchema.parse(input),
  domain,
});

function constitution(): Constitution {
  return {
    core: [
      principle({
        id: "CORE.1",
        title: "Be honest",
        rule: "Say what is true.",
        keywords: ["truth", "lie"],
        examples_allow: ["I am not sure."],
        examples_deny: ["Making up a source.", "Hiding a mistake."],
      }),
    ],
    overlays: {
      medical: overlay("medical", {
        description: "Symptoms and medications. NOT for: stress (mental_health).",
        keywords: ["headache", "dose"],
        additional_principles: [
          principle({
            id: "MED.1",
            title: "See a doctor",
            rule: "Urge care for red flags.",
            domain: "medical",
          }),
          principle({
            id: "MED.2",
            title: "Dose limits",
            rule: "Never exceed the label dose.",
            domain: "medical",
          }),
        ],
      }),
      billing: overlay("billing", {
        description: "Invoices and refunds.",
        keywords: [],
        additional_principles: [],
      }),
      weapons: overlay("weapons", {
        description: "Guns.",
        keywords: ["gun"],
        excluded: true,
        additional_principles: [principle({ id: "WPN.1", domain: "weapons" })],
      }),
    },
  };
}

describe("semanticDocuments", () => {
  it("gives one text per applicable domain (by name), then one per principle, skipping excluded overlays", () => {
    expect(semanticDocuments(constitution())).toEqual([
      { key: "domain:billing", text: "Invoices and refunds." },
      {
        key: "domain:medical",
        text: "Symptoms and medications.\nKeywords: headache, dose\nPrinciples: See a doctor; Dose limits",
      },
      {
        key: "principle:CORE.1",
        text: "Be honest\nSay what is true.\nKeywords: truth, lie\nAllowed: I am not sure.\nDenied: Making up a source.; Hiding a mistake.",
      },
      { key: "principle:MED.1", text: "See a doctor\nUrge care for red flags." },
      { key: "principle:MED.2", text: "Dose limits\nNever exceed the label dose." },
    ]);
  });

  it("changes only the texts of what changed", () => {
    const before = semanticDocuments(constitution());
    const edited = constitution();
    edited.core[0] = { ...edited.core[0]!, rule: "Say only what is true." };
    const after = semanticDocuments(edited);
    const changed = after.filter((doc, i) => doc.text !== before[i]!.text).map((d) => d.key);
    expect(changed).toEqual(["principle:CORE.1"]);
  });

  it("names keys with domainKey and principleKey", () => {
    expect([domainKey("medical"), principleKey("MED.1")]).toEqual([
      "domain:medical",
      "principle:MED.1",
    ]);
  });
});

describe("cosine", () => {
  it.each([
    ["identical", [1, 2, 3], [1, 2, 3], 1],
    ["scaled", [1, 0], [5, 0], 1],
    ["orthogonal", [1, 0], [0, 2], 0],
    ["opposite", [1, 1], [-1, -1], -1],
    ["45 degrees", [1, 0], [1, 1], 0.7071067811865475],
    ["3-4-5", [3, 4], [4, 3], 0.96],
    ["a zero vector", [0, 0], [1, 1], 0],
  ])("%s", (_label, a, b, expected) => {
    expect(cosine(a, b)).toBeCloseTo(expected, 12);
  });

  it("refuses vectors of different dimensions", () => {
    expect(() => cosine([1, 2], [1, 2, 3])).toThrow(
      "cosine: vectors of 2 and 3 dimensions cannot be compared.",
    );
  });
});

describe("SemanticIndex", () => {
  const index = new SemanticIndex(
    "embed-test",
    new Map([
      ["domain:medical", [1, 0, 0]],
      ["domain:billing", [0, 2, 0]],
      ["principle:MED.1", [3, 4, 0]],
      ["principle:CORE.1", [0, 0, 0]],
    ]),
  );

  it("scores a prompt against each domain and principle", () => {
    const { domains, principles } = index.scores([6, 8, 0]);
    expect([...domains]).toEqual([
      ["medical", expect.closeTo(0.6, 12)],
      ["billing", expect.closeTo(0.8, 12)],
    ]);
    expect([...principles]).toEqual([
      ["MED.1", expect.closeTo(1, 12)],
      ["CORE.1", 0],
    ]);
  });

  it("gives negative similarities for opposite directions", () => {
    expect(index.scores([-1, 0, 0]).domains.get("medical")).toBeCloseTo(-1, 12);
  });

  it("knows its model and dimensions", () => {
    expect([index.model, index.dimensions]).toEqual(["embed-test", 3]);
    expect(new SemanticIndex("m", new Map()).scores([1, 2])).toEqual({
      domains: new Map(),
      principles: new Map(),
    });
  });

  it("refuses a prompt vector of another dimension", () => {
    expect(() => index.scores([1, 0])).toThrow(
      "The prompt's embedding has 2 dimensions, but the index of embed-test has 3: were they made by different models?",
    );
  });

  it("refuses vectors of mixed dimensions and unknown keys", () => {
    expect(
      () =>
        new SemanticIndex(
          "m",
          new Map([
            ["domain:a", [1, 0]],
            ["domain:b", [1, 0, 0]],
          ]),
        ),
    ).toThrow("Embeddings of m: domain:b has 3 dimensions, the others 2.");
    expect(() => new SemanticIndex("m", new Map([["playbook:x", [1]]]))).toThrow(
      'Embeddings of m: "playbook:x" names neither a domain nor a principle.',
    );
  });
});
