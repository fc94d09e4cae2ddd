import { db, dbKind } from "./client";

/** The database's health, for /api/health and the dashboard's footer. */
export const health = {
  /** Answers whether the database responds, and which kind it is. */
  async check(): Promise<{ db: "embedded" | "postgres"; ok: boolean }> {
    const kind = dbKind() === "embedded" ? "embedded" : "postgres";
    try {
      await db().$queryRaw`SELECT 1`;
      return { db: kind, ok: true };
    } catch {
      return { db: kind, ok: false };
    }
  },

  /** Which kind of database this process talks to, without opening it. */
  kind: dbKind,
} as const;
