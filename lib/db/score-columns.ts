import type { Principle } from "@/lib/reward";

/** turn_score's SQL column for each principle (the Prisma field names are in lib/db/turns.ts). */
export const SCORE_SQL_COLUMN: Record<Principle, string> = {
  tasteful: "tasteful",
  curated: "curated",
  ethical: "ethical",
  joy_inducing: "joy_inducing",
  composable: "composable",
  heterarchical: "heterarchical",
  generative: "generative",
};
