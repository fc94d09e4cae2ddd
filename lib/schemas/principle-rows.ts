import type { Level, Principle } from "@/lib/constitution";

/** A principle's counters with raw, smoothed and lower-bound trust (the credit-assignment spec). */
export type PrincipleTrustRow = {
  principleId: string;
  useCount: number;
  successCount: number;
  raw: number | null;
  smoothed: number;
  lowerBound: number;
};

/** One principle's uses and trust on one UTC day. */
export type DailyTrust = {
  principleId: string;
  day: string;
  uses: number;
  credit: number;
  smoothed: number;
};

/** One row of the Principles table: the principle, its trust, and a daily series. */
export type PrincipleListRow = Omit<PrincipleTrustRow, "principleId"> & {
  /** Absent for a principle never credited. */
  principleId?: string;
  id: string;
  title: string;
  level: Level | null;
  priority: number | null;
  domain: string | null;
  inConstitution: boolean;
  trend: { day: string; smoothed: number; uses: number }[];
};

/** One credited use of a principle. */
export type PrincipleUsage = {
  id: string;
  sessionId: string | null;
  credit: number;
  wasSuccessful: boolean;
  reasoning: string | null;
  constitutionVersionId: number | null;
  createdAt: Date;
};

/** A turn a principle was injected into. */
export type InjectedTurn = {
  id: string;
  sessionId: string;
  number: number;
  prompt: string;
  startedAt: Date;
};

export type PrincipleText = Principle;

/** What the principle page shows. */
export type PrincipleDetail = {
  id: string;
  principle: PrincipleText | null;
  textVersion: number | null;
  inCurrentVersion: boolean;
  trust: Omit<PrincipleTrustRow, "principleId">;
  /** Trust from each agent's sessions (agent null: sessions that named none), most used first. */
  byAgent: (Omit<PrincipleTrustRow, "principleId"> & { agent: string | null })[];
  daily: DailyTrust[];
  usage: PrincipleUsage[];
  turns: InjectedTurn[];
};
