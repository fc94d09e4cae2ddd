/**
 * Recognises errors that mean "the database could not be asked", as opposed to "the
 * database answered no". Callers turn the first kind into a 503 with Retry-After (an
 * agent's hook then spools and retries) and never into 401, 404 or a fallback answer.
 *
 * The shapes below were observed with Prisma 7 over @prisma/adapter-pg and PGlite:
 * - server down or wrong port: PrismaClientKnownRequestError P1001 (P2010 for raw
 *   queries), `meta.driverAdapterError.cause.kind` "DatabaseNotReachable";
 * - pool exhausted: a plain Error "timeout exceeded when trying to connect" (pg-pool,
 *   after connectionTimeoutMillis), or P2028 "Unable to start a transaction in the
 *   given time" for an interactive transaction;
 * - server out of connections: kind "TooManyConnections", SQLSTATE 53300;
 * - backend killed or server shutting down: kind "postgres" with SQLSTATE 57P01, or
 *   "Connection terminated unexpectedly";
 * - PGlite closed: a plain Error "PGlite is closed".
 * - contention: P2028 for a transaction that expired while it waited (its timeout ran
 *   out under load), P2034 and SQLSTATE 40001/40P01/55P03 for a serialization failure,
 *   a deadlock or a lock not available: the database was asked but could not finish
 *   now, and the same request may succeed in a moment, so these are "try again" too.
 * Better Auth wraps what it does not swallow in an APIError whose `cause` is the
 * original, so causes are followed.
 */

/** Prisma error codes for a server that cannot be reached, refused us, or had no connection to give. */
const PRISMA_CODES = new Set([
  "P1000", // authentication failed
  "P1001", // can't reach database server
  "P1002", // server reached but timed out
  "P1003", // database does not exist
  "P1008", // operations timed out
  "P1010", // access denied
  "P1011", // TLS connection error
  "P1017", // server closed the connection
  "P2024", // timed out fetching a connection from the pool
  "P2028", // transaction API error: could not start in time, or expired before it finished
  "P2034", // transaction failed on a write conflict or a deadlock: retry
]);

/** Driver adapter error kinds (@prisma/driver-adapter-utils) with the same meaning. */
const ADAPTER_KINDS = new Set([
  "DatabaseNotReachable",
  "DatabaseDoesNotExist",
  "DatabaseAccessDenied",
  "AuthenticationFailed",
  "ConnectionClosed",
  "TlsConnectionError",
  "TooManyConnections",
  "SocketTimeout",
]);

/**
 * PostgreSQL SQLSTATEs: class 08 (connection exception), class 53 (insufficient
 * resources: too many connections, out of memory, disk full), 57P01-57P03 (shutdown,
 * crash, cannot connect now), 3D000 and 28xxx (database missing, login refused), and
 * contention: 40001 (serialization failure), 40P01 (deadlock), 55P03 (lock not available).
 */
const SQLSTATE = /^(08[0-9A-Z]{3}|53[0-9A-Z]{3}|57P0[1-3]|3D000|28000|28P01|40001|40P01|55P03)$/;

/** Node socket errors on the way to the server. */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
]);

/** Messages of errors that carry no code: pg, pg-pool, Prisma's transaction API and PGlite. */
const MESSAGES = [
  /timeout exceeded when trying to connect/i,
  /Connection terminated (unexpectedly|due to connection timeout)/i,
  /Client has encountered a connection error and is not queryable/i,
  /Cannot use a pool after calling end on the pool/i,
  /Unable to start a transaction in the given time/i,
  /A query cannot be executed on an expired transaction/i,
  /Transaction already closed/i,
  /Timed out fetching a new connection from the connection pool/i,
  /Can't reach database server/i,
  /too many clients already/i,
  /PGlite is closed/i,
];

const MAX_DEPTH = 6;

function fieldOf(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

function adapterErrorMatches(adapterError: unknown): boolean {
  const cause = fieldOf(adapterError, "cause");
  const kind = fieldOf(cause, "kind");
  if (typeof kind === "string" && ADAPTER_KINDS.has(kind)) return true;
  const sqlState = fieldOf(cause, "originalCode") ?? fieldOf(cause, "code");
  return typeof sqlState === "string" && SQLSTATE.test(sqlState);
}

function matches(error: unknown, depth: number): boolean {
  if (depth > MAX_DEPTH || typeof error !== "object" || error === null) return false;
  const code = fieldOf(error, "code") ?? fieldOf(error, "errorCode");
  if (
    typeof code === "string" &&
    (PRISMA_CODES.has(code) || SOCKET_CODES.has(code) || SQLSTATE.test(code))
  )
    return true;
  const meta = fieldOf(error, "meta");
  if (adapterErrorMatches(fieldOf(meta, "driverAdapterError"))) return true;
  if (fieldOf(error, "name") === "DriverAdapterError" && adapterErrorMatches(error)) return true;
  const message = fieldOf(error, "message");
  if (typeof message === "string" && MESSAGES.some((pattern) => pattern.test(message))) return true;
  const nested = fieldOf(error, "errors");
  if (Array.isArray(nested) && nested.some((inner) => matches(inner, depth + 1))) return true;
  return matches(fieldOf(error, "cause"), depth + 1);
}

/** True when `error` (or any error it wraps) means the database could not be reached or had no connection to spare. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return matches(error, 0);
}
