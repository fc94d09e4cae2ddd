import { db, dbKind } from "./client";

/** Answers whether the database responds, and which kind it is. */
export async function databaseHealth(): Promise<{ db: "embedded" | "postgres"; ok: boolean }> {
  const kind = dbKind() === "embedded" ? "embedded" : "postgres";
  try {
    await db().$queryRaw`SELECT 1`;
    return { db: kind, ok: true };
  } catch {
    return { db: kind, ok: false };
  }
}
