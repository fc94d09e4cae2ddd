import type { Why } from "@/lib/constitution";
import { CliError } from "../errors";
import type { Answer } from "./retrieve-head";

// What `charter retrieve` reads from its arguments and prints: the command (retrieve.ts) and
// its fast bundle (cli/retrieve-fast.ts) share it, so both answer alike.

export function parseTopK(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 100)
    throw new CliError(`--top-k must be a whole number from 1 to 100 (got "${value}").`, 2);
  return n;
}

/** `--domain legal, medical` as its domains. */
export function domainList(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((d) => d.trim())
    .filter(Boolean);
}

/** Why a principle was chosen, in a few words: "matched tabl, column; via coding (0.91)". */
function whyText(why: Why): string {
  const matched = [...why.matched_phrases.map((p) => `"${p}"`), ...why.matched_terms].join(", ");
  const via =
    why.via === "domain"
      ? `; via ${why.domain} (${why.domain_confidence?.toFixed(2)})`
      : why.via === "llm"
        ? "; chosen by the LLM"
        : "";
  return `${matched ? `matched ${matched}` : "no words matched"}${via}`;
}

/** Prints an answer: its warnings on stderr, then `{domains, principles, debug}` as JSON or a few lines of text. */
export function printAnswer(result: Answer, json: boolean): void {
  for (const w of result.debug.warnings) console.error(`warning: ${w}`);
  const principles = result.principles.map((p) => ({
    id: p.id,
    title: p.title,
    level: p.level,
    priority: p.priority,
    domain: p.domain,
    overlay: p.overlay,
    confidence: p.confidence,
    why: p.why,
  }));
  if (json) {
    console.log(
      JSON.stringify({ domains: result.domains, principles, debug: result.debug }, null, 2),
    );
    return;
  }
  console.log(
    `domains: ${result.domains.map((d) => `${d.domain} (${d.confidence.toFixed(2)})`).join(", ") || "none"}`,
  );
  for (const p of principles)
    console.log(
      `  ${p.level.padEnd(4)} ${String(p.priority).padStart(3)}  ${p.confidence.toFixed(2)}  ${p.id.padEnd(22)} ${p.title}  (${whyText(p.why)})`,
    );
  console.log(
    `(${result.debug.path} path, version ${result.version}, ${result.debug.timings_ms.total} ms)`,
  );
}
