import "server-only";
import { db } from "@/lib/db/client";

/**
 * When each person last left a trace, by user id: the latest audit-log row they are
 * the actor of (a sign-in, a sign-out, any change they made). Charter records no page
 * views, and a session row is touched only when it is refreshed (once a day at most),
 * so this and the session's last update are all the data honestly supports.
 * One grouped read over the audit log (indexed by time; a few thousand rows a year).
 */
export async function lastAuditedAt(): Promise<Map<string, Date>> {
  const rows = await db().auditLog.groupBy({ by: ["actorId"], _max: { at: true }, where: { actorId: { not: null } } });
  return new Map(rows.flatMap((row) => (row.actorId && row._max.at ? [[row.actorId, row._max.at] as const] : [])));
}

/** The later of two instants, either of which may be missing. */
export function latest(a: Date | null | undefined, b: Date | null | undefined): Date | null {
  if (!a) return b ?? null;
  if (!b) return a;
  return a > b ? a : b;
}
