import { PrincipleScore, type Principle, type ScoreDict } from "@/lib/reward";

/** Session ids are long (Claude Code's are UUIDs); the table shows their start. */
export function shortId(id: string, length = 8): string {
  return id.length > length ? `${id.slice(0, length)}…` : id;
}

/** The lowest-scoring principle, or null when every principle scored 1.0. */
export function lowestPrinciple(scores: ScoreDict): { principle: Principle; score: number } | null {
  const weakest = new PrincipleScore(scores).weakest();
  return weakest.score < 1 ? weakest : null;
}
