import type pg from "pg";
import { ingestPool } from "./client";
import { inTransaction, type Tx } from "./transaction";

/** What event ingestion's statements run on: a Prisma transaction, or a PostgreSQL connection in a transaction. */
export type Sql = {
  query<T>(text: string, params: unknown[]): Promise<T[]>;
};

const onPrisma = (tx: Tx): Sql => ({
  query: <T>(text: string, params: unknown[]) => tx.$queryRawUnsafe<T[]>(text, ...params),
});

/** A name per statement text: each connection of the pool prepares a statement once and runs it by name after. */
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) statementNames.set(text, (name = `ingest_${statementNames.size + 1}`));
  return name;
}

/**
 * On a connection of the ingestion pool, each statement is prepared once per connection
 * and planned once (the pool's connections use generic plans: a group's rows come as
 * one JSON parameter, so no value would plan better), which saves about a third of
 * each statement's time on the server.
 */
const onConnection = (client: pg.PoolClient): Sql => ({
  query: async <T>(text: string, params: unknown[]) =>
    (await client.query({ name: statementName(text), text, values: params })).rows as T[],
});

/** A transaction longer than this is ended (as Prisma's own transactions are). */
const TIMEOUT_MS = 120_000;

/**
 * Runs `work` in one transaction. On PostgreSQL, unless `work` needs a Prisma
 * transaction (`tx`: other repositories' statements, such as credit), it runs on a
 * plain connection of the ingestion pool: the same SQL, a few times cheaper per
 * statement than through the query engine. A throw rolls it back.
 */
export async function inIngestTransaction<T>(
  options: { prisma: boolean },
  work: (sql: Sql, tx: Tx | null) => Promise<T>,
): Promise<T> {
  const pool = options.prisma ? null : ingestPool();
  if (!pool)
    return inTransaction((tx) => work(onPrisma(tx), tx), { timeout: TIMEOUT_MS, maxWait: 10_000 });
  const client = await pool.connect();
  let broken: unknown;
  try {
    await client.query(`BEGIN; SET LOCAL statement_timeout = ${TIMEOUT_MS}`);
    const out = await work(onConnection(client), null);
    await client.query("COMMIT");
    return out;
  } catch (error) {
    await client.query("ROLLBACK").catch((rollback: unknown) => (broken = rollback));
    throw error;
  } finally {
    // A connection whose rollback failed is not given to the next transaction.
    client.release(broken instanceof Error ? broken : undefined);
  }
}
