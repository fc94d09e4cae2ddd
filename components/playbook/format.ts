import { PRUNE_HARMFUL_FLOOR } from "@/lib/playbook";

/** The playbook spec's prune rule as people read it, with the floor taken from the engine. */
export const PRUNE_RULE = `harmful >= ${PRUNE_HARMFUL_FLOOR} and harmful > helpful`;

/** The rule with one entry's counts filled in: "3 >= 3 and 3 > 0". */
export function ruleWithCounts({ helpful, harmful }: { helpful: number; harmful: number }): string {
  return `${harmful} >= ${PRUNE_HARMFUL_FLOOR} and ${harmful} > ${helpful}`;
}
