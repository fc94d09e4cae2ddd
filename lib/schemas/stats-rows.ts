import type { Principle } from "@/lib/reward";

/** One UTC day of the Overview's score trend. */
export type TrendPoint = { day: string; turns: number; avgNormalized: number };
/** One tenth of the distribution of normalized totals. */
export type Bucket = { from: number; to: number; turns: number };
/** A principle's average score over the last 7 days. */
export type PrincipleAverage = { principle: Principle; average: number; turns: number };
