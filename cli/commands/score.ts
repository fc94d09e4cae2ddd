import type { Command } from "commander";
import { z } from "zod";
import { constitutionalReward, PrincipleScore, turnResultSchema, weightsSchema } from "@/lib/reward";
import { readJsonInput } from "../stdin";

/** `charter score --json` input: seed 000's constitutional_reward arguments. */
export const scoreInputSchema = z.strictObject({
  action: z.string().min(1).default("send_message"),
  turn_result: turnResultSchema,
  has_mutations: z.boolean().default(false),
  weights: weightsSchema.optional(),
});

export function registerScore(program: Command): void {
  program
    .command("score")
    .description('Score a turn: reads {"action", "turn_result": {"response", "tools", "tools_passed", "context_utilization"?}, "has_mutations", "weights"?} on stdin')
    .option("--json", "print JSON (the only output format)")
    .action(async () => {
      const input = await readJsonInput(scoreInputSchema, "turn");
      const { score, reasoning } = constitutionalReward(input.action, input.turn_result, input.has_mutations);
      const weights = input.weights;
      console.log(
        JSON.stringify(
          {
            scores: score.toDict(),
            weighted_total: score.weightedTotal(weights),
            max_total: PrincipleScore.maxTotal(weights),
            normalized_total: score.normalizedTotal(weights),
            reasoning,
          },
          null,
          2,
        ),
      );
    });
}
