import { db } from "./client";
import type { Prisma } from "./generated/prisma/client";

/** A transaction's client: repositories take it to join a caller's transaction. */
export type Tx = Prisma.TransactionClient;

/**
 * Runs `work` in one transaction on the process-wide client. Services use it to put
 * several repositories' writes in one transaction without touching the client.
 */
export function inTransaction<T>(
  work: (tx: Tx) => Promise<T>,
  options?: { timeout?: number; maxWait?: number },
): Promise<T> {
  return db().$transaction(work, options);
}
