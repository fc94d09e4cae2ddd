import { closeDb, db, dbKind } from "./client";
import { inTransaction } from "./transaction";

/**
 * The key of the advisory lock that instances starting together on one PostgreSQL take
 * around their one-off start-up writes (CHARTER_INIT_*, the first admin, the shipped
 * constitution, the first-admin link). Any fixed bigint works; this one is "charter1" in ASCII.
 */
export const START_UP_LOCK_KEY = 0x6368617274657231n;

/**
 * How long an instance waits for another one's start-up writes (creating the first admin,
 * importing the shipped constitution) before its own start fails and says so.
 */
export const START_UP_LOCK_TIMEOUT_MS = 180_000;

/** What the audit log names as the actor of a first-admin link printed at start: the claim. */
export const FIRST_ADMIN_LINK_ACTOR = { id: null, label: "server-start" } as const;

/** A server process's start and end on the database: coordination of instances that start at once, and the close at exit. */
export const lifecycle = {
  /**
   * Runs `work` while this process holds the start-up advisory lock, so instances started
   * together do their start-up writes one after another: the second finds what the first
   * made instead of racing it to a unique-constraint error. The lock is a transaction's
   * (released at its commit or when the connection drops, so a killed instance never
   * leaves it held); `work` itself runs on other pooled connections. The embedded
   * database has one process by construction (its lock file), so it needs no lock.
   */
  async serialisedStart<T>(work: () => Promise<T>): Promise<T> {
    if (dbKind() === "embedded") return work();
    return inTransaction(
      async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(${START_UP_LOCK_KEY})`;
        return work();
      },
      { timeout: START_UP_LOCK_TIMEOUT_MS, maxWait: START_UP_LOCK_TIMEOUT_MS },
    );
  },

  /**
   * When a start printed a first-admin link for `userId` within the last `seconds`
   * (the audit row of that link, by the database's clock, so instances with skewed
   * clocks agree), or null. Read under `serialised`, it is the claim that makes one
   * start-up wave print one link.
   */
  async firstAdminLinkSince(userId: string, seconds: number): Promise<Date | null> {
    const row = await db().auditLog.findFirst({
      where: {
        action: "user.sign_in_link",
        objectType: "user",
        objectId: userId,
        actorLabel: FIRST_ADMIN_LINK_ACTOR.label,
        at: { gt: new Date((await databaseNow()).getTime() - seconds * 1000) },
      },
      orderBy: { at: "desc" },
      select: { at: true },
    });
    return row?.at ?? null;
  },

  /** Closes this process's connections (the last step of a drain, so PostgreSQL sees a clean goodbye). */
  close: closeDb,
} as const;

async function databaseNow(): Promise<Date> {
  const [row] = await db().$queryRaw<{ now: Date }[]>`SELECT now() AS now`;
  return row?.now ?? new Date();
}
