import type { Principle, ScoreDict } from "@/lib/reward";

/** What the Turns list can be filtered by. */
export type TurnFilters = {
  sessionId?: string;
  from?: Date;
  to?: Date;
  minTotal?: number;
  maxTotal?: number;
  /** Only turns where this principle scored below `below`. */
  principle?: Principle;
  below?: number;
};

/** One row of the Turns list. */
export type TurnListRow = {
  id: string;
  sessionId: string;
  number: number;
  prompt: string;
  scoredAt: Date;
  weightedTotal: number;
  maxTotal: number;
  normalizedTotal: number;
  scores: ScoreDict;
  overridden: boolean;
};
