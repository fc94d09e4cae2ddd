import { PrincipleScore, type Principle, type ScoreDict } from "@/lib/reward";

/** The lowest-scoring principle, or null when every principle scored 1.0. */
export function lowestPrinciple(scores: ScoreDict): { principle: Principle; score: number } | null {
  const weakest = new PrincipleScore(scores).weakest();
  return weakest.score < 1 ? weakest : null;
}
