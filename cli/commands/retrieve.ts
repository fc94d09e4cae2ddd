import type { Command } from "commander";
import { CliError } from "../errors";
import { domainList, parseTopK, printAnswer } from "./retrieve-output";
import { retrieveAnswer } from "./retrieve-paths";

export function registerRetrieve(program: Command): void {
  program
    .command("retrieve <prompt>")
    .description(
      "Find the domains and principles that apply to a prompt under the current constitution",
    )
    .option("--top-k <n>", "how many principles", parseTopK)
    .option(
      "--domain <domains>",
      "skip domain detection and use these domains (separated by commas); one with no overlay falls back to core, with a warning",
    )
    .option("--json", "print {domains, principles, debug} as JSON")
    .action(async (prompt: string, options: { topK?: number; domain?: string; json?: boolean }) => {
      if (!prompt.trim()) throw new CliError("The prompt is empty.");
      const result = await retrieveAnswer(prompt, {
        topK: options.topK,
        domain: domainList(options.domain),
      });
      printAnswer(result, options.json === true);
    });
}
