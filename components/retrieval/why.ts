import type { DebugInfo } from "@/lib/constitution/store";
import type { Why } from "@/lib/constitution/selection";
import { formatCount, formatUnit } from "@/lib/format";

/** The words of the prompt a principle matched: phrases quoted, then stemmed terms. */
export function matchedText(why: Why): string {
  const matched = [...why.matched_phrases.map((p) => `"${p}"`), ...why.matched_terms];
  return matched.length ? `matched: ${matched.join(", ")}` : "no words matched";
}

/** What carried a principle in: its own match, a detected domain (with that domain's confidence), or an LLM agent. */
export function viaText(why: Why): string {
  if (why.via === "domain")
    return `via ${why.domain ?? "a domain"} (${formatUnit(why.domain_confidence ?? 0)})`;
  if (why.via === "llm")
    return `via the ${why.domain ?? "core"} LLM agent (${formatUnit(why.own)})`;
  return `via the prompt (${formatUnit(why.own)})`;
}

/** Why a principle was chosen, in one line: "matched: tabl, column · via coding (0.912)", plus the semantic step's confidence and the learned weights' logit when they count. */
export function whyText(why: Why): string {
  const parts =
    why.via === "llm" && why.matched_terms.length === 0 && why.matched_phrases.length === 0
      ? [viaText(why)]
      : [matchedText(why), viaText(why)];
  if (why.semantic !== null && why.semantic !== undefined)
    parts.push(`semantic ${formatUnit(why.semantic)}`);
  if (why.learned) parts.push(`learned ${why.learned > 0 ? "+" : ""}${why.learned.toFixed(2)}`);
  if (why.labelled) parts.push("labelled by a reviewer");
  return parts.join(" · ");
}

/** The injected context against its budget: "612 of 2400 characters; dropped for budget: X, Y". */
export function contextText(context: DebugInfo["context"]): string {
  const used = `${formatCount(context.chars)} of ${formatCount(context.budget_chars)} characters`;
  return context.dropped_for_budget.length
    ? `${used}; dropped for budget: ${context.dropped_for_budget.join(", ")}`
    : used;
}
