/**
 * Scoring throughput: constitutionalReward over N turns, against JSON.parse of the
 * same turns measured in the same run. Run: npx tsx bench/scoring.ts
 */
import { constitutionalReward } from "@/lib/reward";

const N = 100_000;
const turns = Array.from({ length: N }, (_, i) =>
  JSON.stringify({
    action: "send_message",
    turn_result: {
      response: i % 7 === 0 ? "OK" : "I've analyzed the code and found 3 potential issues.",
      tools: Array.from({ length: i % 11 }, (_, t) => ({ name: `tool_${t}`, status: "success" })),
      tools_passed: i % 5 !== 0,
      context_utilization: (i % 100) / 100,
    },
    has_mutations: i % 3 === 0,
  }),
);

function time(run: () => void): number {
  run(); // warm-up
  const samples: number[] = [];
  for (let r = 0; r < 5; r++) {
    const started = performance.now();
    run();
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b)[2]!;
}

const parsed = turns.map(
  (t) =>
    JSON.parse(t) as {
      action: string;
      turn_result: Parameters<typeof constitutionalReward>[1];
      has_mutations: boolean;
    },
);
const parseMs = time(() => {
  for (const t of turns) JSON.parse(t);
});
const scoreMs = time(() => {
  for (const t of parsed)
    constitutionalReward(t.action, t.turn_result, t.has_mutations).score.weightedTotal();
});
console.log(`${N} turns (median of 5 runs)`);
console.log(
  `JSON.parse         ${parseMs.toFixed(1)} ms  ${Math.round(N / (parseMs / 1000)).toLocaleString("en")} turns/s`,
);
console.log(
  `constitutionalReward ${scoreMs.toFixed(1)} ms  ${Math.round(N / (scoreMs / 1000)).toLocaleString("en")} turns/s`,
);
console.log(`ratio scoring/parse: ${(scoreMs / parseMs).toFixed(2)}`);
