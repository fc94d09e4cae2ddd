import type { Command } from "commander";
import { z } from "zod";
import {
  analyzeUserFeedback,
  assignCredit,
  readSessionState,
  SessionStateError,
} from "@/lib/credit";
import { CliError } from "../errors";
import { readJsonArgument, readJsonInput } from "../stdin";

/** `charter feedback --json` input: the credit-assignment spec's analyzeUserFeedback arguments. */
export const feedbackInputSchema = z.strictObject({
  prompt: z.string(),
  previous_prompts: z.array(z.string()).default([]),
  recent_tool_calls: z.array(z.unknown()).default([]),
});

/** Registers `charter feedback` (the credit-assignment spec's analyzeUserFeedback) and `charter credit` (outcome and per-principle credit of a SessionState). */
export function registerCredit(program: Command): void {
  program
    .command("feedback")
    .description(
      'Classify a prompt as feedback on the previous turn: reads {"prompt", "previous_prompts", "recent_tool_calls"} on stdin',
    )
    .option("--json", "print JSON (the only output format)")
    .action(async () => {
      const input = await readJsonInput(feedbackInputSchema, "feedback input");
      console.log(
        JSON.stringify(
          analyzeUserFeedback(input.prompt, input.previous_prompts, input.recent_tool_calls),
          null,
          2,
        ),
      );
    });

  program
    .command("credit")
    .description(
      'Score a session and credit its injected principles: reads a SessionState {"sessionId", "prompts", "injectedPrinciples", "toolCalls", "userFeedback"}, or an evolver-harness session file of any version, from a file or stdin',
    )
    .argument("[file]", "a JSON file, e.g. ~/.evolver/sessions/<id>.json (default: stdin)")
    .option("--json", "print JSON (the only output format)")
    .action(async (file: string | undefined) => {
      const raw = await readJsonArgument(file);
      let read;
      try {
        read = readSessionState(raw);
      } catch (error) {
        if (error instanceof SessionStateError)
          throw new CliError(`invalid session state: ${error.problems.join("; ")}`);
        throw error;
      }
      for (const warning of read.warnings) console.error(`charter: warning: ${warning}`);
      const { status, score, signals, principle_credits } = assignCredit(read.state);
      console.log(
        JSON.stringify(
          { outcome: { status, score, signals }, principle_credits, warnings: read.warnings },
          null,
          2,
        ),
      );
    });
}
