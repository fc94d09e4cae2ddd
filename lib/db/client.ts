import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { databaseTarget, type DatabaseTarget } from "@/lib/env";
import { acquireLockSync, dataDirLockPath, lockHolder } from "@/lib/lock.mjs";
import { DatabaseBusyError } from "./migrate-driver";
import { PrismaClient } from "./generated/prisma/client";

export type { DatabaseTarget };

type Cached = {
  prisma: PrismaClient;
  target: DatabaseTarget;
  close: () => Promise<void>;
  /** PostgreSQL only: connections for event ingestion's own transactions (lib/db/ingest.ts), opened on first use. */
  ingestPool?: () => pg.Pool;
};

// One client per process: Next.js evaluates modules once per bundle layer, so the
// cache lives on globalThis. PGlite must never be opened twice on one directory.
const globalCache = globalThis as unknown as { __charterDb?: Cached };

/** Connections one process holds to PostgreSQL; requests beyond it queue for one. */
export const POOL_SIZE = 10;
/**
 * Connections event ingestion holds beside them for its group transactions: two groups
 * at once in the small and the large lane of a source (lib/services/ingest-queue.ts),
 * for the hook's source and one more.
 */
export const INGEST_POOL_SIZE = 6;

/**
 * How long a query or a transaction waits for a connection, whether the pool is busy
 * or the server is slow to answer, before it fails as "database unavailable" (503
 * with Retry-After). Short enough that a request under overload never hangs.
 */
export const CONNECT_TIMEOUT_MS = 5_000;

/**
 * How long an interactive transaction may run before Prisma aborts it. Prisma's own
 * default (5 s) killed long work on a loaded machine (a first transcript import at load
 * average 20 took 6 s); work that is legitimately long is bounded by its own size
 * instead, and a transaction that still expires is answered 503 (lib/db/unavailable.ts).
 */
export const TRANSACTION_TIMEOUT_MS = 120_000;

/** How long a transaction waits for the embedded database's one connection. */
const PGLITE_TRANSACTION_WAIT_MS = 30_000;

/** Builds a Prisma client for a target. Opening is lazy so that `next build` never touches a database. */
export function createPrisma(target: DatabaseTarget): Cached {
  if (target.kind === "postgres") {
    const adapter = new PrismaPg({
      connectionString: target.url,
      max: POOL_SIZE,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    // Prisma's own wait for a transaction's connection (2 s by default) follows the pool's, so both fail alike.
    const prisma = new PrismaClient({
      adapter,
      transactionOptions: { maxWait: CONNECT_TIMEOUT_MS, timeout: TRANSACTION_TIMEOUT_MS },
    });
    let ingest: pg.Pool | undefined;
    return {
      prisma,
      target,
      ingestPool: () =>
        (ingest ??= new pg.Pool({
          connectionString: target.url,
          max: INGEST_POOL_SIZE,
          // Its statements are prepared by name and planned once (lib/db/ingest-sql.ts).
          options: "-c plan_cache_mode=force_generic_plan",
          connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
          // Kept open while idle: opening one on a busy server can take seconds, and agents come in bursts.
          idleTimeoutMillis: 0,
          // An idle connection the server closed leaves the pool; the next query reports the outage.
        }).on("error", () => undefined)),
      close: async () => {
        await Promise.all([prisma.$disconnect(), ingest?.end()]);
      },
    };
  }
  // One process at a time per data directory: the same `<dir>.lock` (lib/lock.mjs) as the
  // migration runner and the schema-engine stand-in, held until close() or exit.
  const lockFile = dataDirLockPath(target.dir);
  const lock = acquireLockSync(lockFile, { deadline: Date.now() + CONNECT_TIMEOUT_MS });
  if (!lock) throw new DatabaseBusyError(target.dir, lockHolder(lockFile));
  const pglite = new PGlite(target.dir);
  // PGlite is one connection in this process: transactions queue for it, and a busy
  // laptop must not turn that queue into errors (Prisma's 2 s default did, under load).
  const prisma = new PrismaClient({
    adapter: new PrismaPGlite(pglite),
    transactionOptions: { maxWait: PGLITE_TRANSACTION_WAIT_MS, timeout: TRANSACTION_TIMEOUT_MS },
  });
  return {
    prisma,
    target,
    close: async () => {
      try {
        await prisma.$disconnect();
        await pglite.close();
      } finally {
        lock.release();
      }
    },
  };
}

/** The process-wide Prisma client for the configured database. */
export function db(): PrismaClient {
  globalCache.__charterDb ??= createPrisma(databaseTarget());
  return globalCache.__charterDb.prisma;
}

/**
 * PostgreSQL connections for event ingestion's group transactions, which run plain SQL
 * and pay for no query engine (a few times cheaper per statement); null on the embedded
 * database, whose one connection Prisma holds.
 */
export function ingestPool(): pg.Pool | null {
  db();
  return globalCache.__charterDb?.ingestPool?.() ?? null;
}

/** Which kind of database this process talks to, without opening it. */
export function dbKind(): DatabaseTarget["kind"] {
  return (globalCache.__charterDb?.target ?? databaseTarget()).kind;
}

/** The database this process's client talks to (or will, once opened). */
export function dbTarget(): DatabaseTarget {
  return globalCache.__charterDb?.target ?? databaseTarget();
}

/** Closes the process-wide client (CLI commands call this before exiting). */
export async function closeDb(): Promise<void> {
  const cached = globalCache.__charterDb;
  globalCache.__charterDb = undefined;
  await cached?.close();
}

/** Points this process at another database (tests give each file its own). */
export async function switchDatabase(target: DatabaseTarget): Promise<PrismaClient> {
  await closeDb();
  globalCache.__charterDb = createPrisma(target);
  return globalCache.__charterDb.prisma;
}
