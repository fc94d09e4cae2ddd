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
  /** Only turns of this agent's sessions (UNKNOWN_AGENT: of sessions that named none). */
  agent?: string;
};

/** One row of the Turns list. */
export type TurnListRow = {
  id: string;
  sessionId: string;
  /** The agent the session's events named; null when none did. */
  agent: string | null;
  number: number;
  prompt: string;
  scoredAt: Date;
  weightedTotal: number;
  maxTotal: number;
  normalizedTotal: number;
  scores: ScoreDict;
  overridden: boolean;
};
