import type { Command } from "commander";
import { z } from "zod";
import {
  constitutionalReward,
  PrincipleScore,
  TurnResultError,
  weightsSchema,
  type TurnResultInput,
} from "@/lib/reward";
import { CliError } from "../errors";
import { issuesText, readJsonArgument } from "../stdin";

/** The keys of `charter score`'s envelope; an object with none of them is a bare TurnResult. */
export const ENVELOPE_KEYS = ["action", "turn_result", "has_mutations", "weights"] as const;

/**
 * `charter score --json` input: the turn-score spec's constitutional_reward arguments. Unknown
 * keys are refused here (unlike in turn_result): a misspelt has_mutations would
 * otherwise change the score without a word.
 */
export const scoreInputSchema = z.strictObject({
  action: z.string().min(1).default("send_message"),
  turn_result: z.unknown().optional(),
  has_mutations: z.boolean({ error: "must be true or false" }).default(false),
  weights: weightsSchema.optional(),
});

type ScoreOptions = { action?: string; hasMutations?: boolean };

/** The envelope for a document: itself when it has an envelope key, else a bare TurnResult wrapped with the command's options. */
export function scoreInput(
  raw: unknown,
  options: ScoreOptions = {},
): z.output<typeof scoreInputSchema> {
  const isObject = typeof raw === "object" && raw !== null && !Array.isArray(raw);
  const envelope = isObject && ENVELOPE_KEYS.some((k) => k in raw) ? raw : { turn_result: raw };
  const parsed = scoreInputSchema.safeParse({
    action: options.action,
    has_mutations: options.hasMutations,
    ...envelope,
  });
  if (!parsed.success) throw new CliError(`invalid turn: ${issuesText(parsed.error.issues)}`);
  return parsed.data;
}

export function registerScore(program: Command): void {
  program
    .command("score")
    .description(
      'Score a turn: reads a kgents TurnResult {"response", "tools", "tools_passed", ...}, or {"action", "turn_result", "has_mutations", "weights"?}, from a file or stdin',
    )
    .argument("[file]", "a JSON file (default: stdin)")
    .option(
      "--action <name>",
      "the action scored, when the input does not say (default send_message)",
    )
    .option("--has-mutations", "the turn changed files, when the input does not say")
    .option("--json", "print JSON (the only output format)")
    .action(async (file: string | undefined, options: ScoreOptions) => {
      const input = scoreInput(await readJsonArgument(file), options);
      let result;
      try {
        result = constitutionalReward(
          input.action,
          input.turn_result as TurnResultInput | null | undefined,
          input.has_mutations,
        );
      } catch (error) {
        if (error instanceof TurnResultError)
          throw new CliError(`invalid turn: ${error.message.replace(/^Invalid TurnResult: /, "")}`);
        throw error;
      }
      const { score, reasoning, ignored_fields, warnings } = result;
      for (const warning of warnings) console.error(`charter: warning: ${warning}`);
      const weights = input.weights;
      console.log(
        JSON.stringify(
          {
            scores: score.toDict(),
            weighted_total: score.weightedTotal(weights),
            max_total: PrincipleScore.maxTotal(weights),
            normalized_total: score.normalizedTotal(weights),
            reasoning,
            ignored_fields,
            warnings,
          },
          null,
          2,
        ),
      );
    });
}
