import { describe, expect, it } from "vitest";
import type { Why } from "@/lib/constitution/selection";
import { contextText, whyText } from "./why";

const why = (over: Partial<Why>): Why => ({
  via: "prompt",
  domain: null,
  domain_confidence: null,
  own: 0.5,
  matched_terms: [],
  matched_phrases: [],
  semantic: null,
  ...over,
});

describe("whyText", () => {
  it.each<[string, Partial<Why>, string]>([
    [
      "a domain's carry",
      {
        via: "domain",
        domain: "coding",
        domain_confidence: 0.912,
        matched_terms: ["tabl", "column"],
      },
      "matched: tabl, column · via coding (0.912)",
    ],
    [
      "its own match, phrases first",
      {
        via: "prompt",
        own: 0.62,
        matched_terms: ["deposit"],
        matched_phrases: ["security deposit"],
      },
      'matched: "security deposit", deposit · via the prompt (0.620)',
    ],
    [
      "an LLM agent's choice",
      { via: "llm", domain: "medical", own: 0.8 },
      "via the medical LLM agent (0.800)",
    ],
    ["the core LLM agent's choice", { via: "llm", own: 0.7 }, "via the core LLM agent (0.700)"],
    [
      "a domain with no word matched",
      { via: "domain", domain: "legal", domain_confidence: 0.5 },
      "no words matched · via legal (0.500)",
    ],
    [
      "the semantic step's confidence",
      { via: "prompt", own: 0.4, matched_terms: ["refund"], semantic: 0.736 },
      "matched: refund · via the prompt (0.400) · semantic 0.736",
    ],
    [
      "what the learned weights added",
      { via: "prompt", own: 0.71, matched_terms: ["starter"], learned: 1.594825 },
      "matched: starter · via the prompt (0.710) · learned +1.59",
    ],
    [
      "what the learned weights took away",
      { via: "prompt", own: 0.55, matched_terms: ["help"], learned: -0.4 },
      "matched: help · via the prompt (0.550) · learned -0.40",
    ],
  ])("%s", (_label, over, text) => expect(whyText(why(over))).toBe(text));
});

describe("contextText", () => {
  it("gives the characters against the budget", () => {
    expect(contextText({ chars: 612, budget_chars: 2400, dropped_for_budget: [] })).toBe(
      "612 of 2,400 characters",
    );
  });
  it("names what the budget dropped", () => {
    expect(
      contextText({
        chars: 2390,
        budget_chars: 2400,
        dropped_for_budget: ["SOFT.A.1", "SOFT.B.2"],
      }),
    ).toBe("2,390 of 2,400 characters; dropped for budget: SOFT.A.1, SOFT.B.2");
  });
});
