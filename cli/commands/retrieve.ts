import type { Command } from "commander";
import type { Why } from "@/lib/constitution";
import { CliError } from "../errors";
import { withDatabase } from "../runtime";

function parseTopK(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 100) throw new CliError(`--top-k must be a whole number from 1 to 100 (got "${value}").`, 2);
  return n;
}

/** Why a principle was chosen, in a few words: "matched tabl, column; via coding (0.91)". */
function whyText(why: Why): string {
  const matched = [...why.matched_phrases.map((p) => `"${p}"`), ...why.matched_terms].join(", ");
  const via = why.via === "domain" ? `; via ${why.domain} (${why.domain_confidence?.toFixed(2)})` : why.via === "llm" ? "; chosen by the LLM" : "";
  return `${matched ? `matched ${matched}` : "no words matched"}${via}`;
}

export function registerRetrieve(program: Command): void {
  program
    .command("retrieve <prompt>")
    .description("Find the domains and principles that apply to a prompt under the current constitution")
    .option("--top-k <n>", "how many principles", parseTopK)
    .option("--domain <domains>", "skip domain detection and use these domains (separated by commas); one with no overlay falls back to core, with a warning")
    .option("--json", "print {domains, principles, debug} as JSON")
    .action(async (prompt: string, options: { topK?: number; domain?: string; json?: boolean }) => {
      if (!prompt.trim()) throw new CliError("The prompt is empty.");
      await withDatabase(async () => {
        const { ensureConstitution, retrieve } = await import("@/lib/services/constitution");
        await ensureConstitution();
        const domains = (options.domain ?? "").split(",").map((d) => d.trim()).filter(Boolean);
        const result = await retrieve(prompt, { topK: options.topK, domain: domains.length ? domains : null });
        for (const w of result.debug.warnings) console.error(`warning: ${w}`);
        const principles = result.principles.map((p) => ({ id: p.id, title: p.title, level: p.level, priority: p.priority, confidence: p.confidence, why: p.why }));
        if (options.json) {
          console.log(JSON.stringify({ domains: result.domains, principles, debug: result.debug }, null, 2));
          return;
        }
        console.log(`domains: ${result.domains.map((d) => `${d.domain} (${d.confidence.toFixed(2)})`).join(", ") || "none"}`);
        for (const p of principles) console.log(`  ${p.level.padEnd(4)} ${String(p.priority).padStart(3)}  ${p.confidence.toFixed(2)}  ${p.id.padEnd(22)} ${p.title}  (${whyText(p.why)})`);
        console.log(`(${result.debug.path} path, version ${result.version}, ${result.debug.timings_ms.total} ms)`);
      });
    });
}
