import { describe, expect, it } from "vitest";
import type { Why } from "@/lib/constitution/selection";
import { contextText, whyText } from "./why";

const why = (over: Partial<Why>): Why => ({ via: "prompt", domain: null, domain_confidence: null, own: 0.5, matched_terms: [], matched_phrases: [], semantic: null, ...over });

describe("whyText", () => {
  it.each<[string, Partial<Why>, string]>([
    ["a domain's carry", { via: "domain", domain: "coding", domain_confidence: 0.912, matched_terms: ["tabl", "column"] }, "matched: tabl, column · via coding (0.91)"],
    ["its own match, phrases first", { via: "prompt", own: 0.62, matched_terms: ["deposit"], matched_phrases: ["security deposit"] }, 'matched: "security deposit", deposit · via the prompt (0.62)'],
    ["an LLM agent's choice", { via: "llm", domain: "medical", own: 0.8 }, "via the medical LLM agent (0.80)"],
    ["the core LLM agent's choice", { via: "llm", own: 0.7 }, "via the core LLM agent (0.70)"],
    ["a domain with no word matched", { via: "domain", domain: "legal", domain_confidence: 0.5 }, "no words matched · via legal (0.50)"],
    ["the semantic step's confidence", { via: "prompt", own: 0.4, matched_terms: ["refund"], semantic: 0.736 }, "matched: refund · via the prompt (0.40) · semantic 0.74"],
  ])("%s", (_label, over, text) => expect(whyText(why(over))).toBe(text));
});

describe("contextText", () => {
  it("gives the characters against the budget", () => {
    expect(contextText({ chars: 612, budget_chars: 2400, dropped_for_budget: [] })).toBe("612 of 2400 characters");
  });
  it("names what the budget dropped", () => {
    expect(contextText({ chars: 2390, budget_chars: 2400, dropped_for_budget: ["SOFT.A.1", "SOFT.B.2"] })).toBe("2390 of 2400 characters; dropped for budget: SOFT.A.1, SOFT.B.2");
  });
});
