import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./unavailable";

/** An error shaped like Prisma's PrismaClientKnownRequestError, as observed over @prisma/adapter-pg. */
function prismaError(code: string, message: string, cause?: Record<string, unknown>): Error {
  return Object.assign(new Error(message), {
    name: "PrismaClientKnownRequestError",
    code,
    clientVersion: "7.10.0",
    meta: cause ? { driverAdapterError: { name: "DriverAdapterError", cause } } : {},
  });
}

const plain = (message: string) => Object.assign(new Error(message), { clientVersion: "7.10.0" });

describe("isDatabaseUnavailable", () => {
  it.each([
    [
      "server down (model query)",
      prismaError("P1001", "Can't reach database server at 127.0.0.1:5499", {
        kind: "DatabaseNotReachable",
        host: "127.0.0.1",
        port: 5499,
      }),
    ],
    [
      "server down (raw query)",
      prismaError("P2010", "Raw query failed. Code: `N/A`.", {
        kind: "DatabaseNotReachable",
        host: "127.0.0.1",
        port: 5499,
      }),
    ],
    ["pool exhausted", plain("timeout exceeded when trying to connect")],
    [
      "pool exhausted (transaction)",
      prismaError(
        "P2028",
        "Transaction API error: Unable to start a transaction in the given time.",
      ),
    ],
    [
      "too many clients",
      prismaError("P2010", "Raw query failed. Code: `53300`.", {
        originalCode: "53300",
        kind: "TooManyConnections",
        cause: "sorry, too many clients already",
      }),
    ],
    [
      "backend terminated",
      prismaError("P2010", "Raw query failed. Code: `57P01`.", {
        originalCode: "57P01",
        kind: "postgres",
        code: "57P01",
        severity: "FATAL",
      }),
    ],
    ["connection lost", plain("Connection terminated unexpectedly")],
    [
      "database missing",
      prismaError("P1003", "Database `x` does not exist", {
        originalCode: "3D000",
        kind: "DatabaseDoesNotExist",
        db: "x",
      }),
    ],
    ["PGlite closed", plain("PGlite is closed")],
    [
      "pool timeout (Prisma P2024)",
      prismaError("P2024", "Timed out fetching a new connection from the connection pool."),
    ],
    [
      "socket refused",
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5499"), {
        code: "ECONNREFUSED",
        syscall: "connect",
        errno: -111,
      }),
    ],
    [
      "wrapped by Better Auth",
      Object.assign(new Error("Failed to get session"), {
        name: "APIError",
        cause: plain("timeout exceeded when trying to connect"),
      }),
    ],
    // Contention under load: the database was asked but could not finish now; a retry may succeed.
    [
      "transaction expired while it waited (load)",
      prismaError(
        "P2028",
        "Transaction API error: Transaction already closed: A query cannot be executed on an expired transaction. The timeout for this transaction was 5000 ms, however 6012 ms passed since the start of the transaction.",
      ),
    ],
    [
      "write conflict or deadlock",
      prismaError(
        "P2034",
        "Transaction failed due to a write conflict or a deadlock. Please retry your transaction",
      ),
    ],
    [
      "deadlock detected",
      prismaError("P2010", "Raw query failed. Code: `40P01`.", {
        originalCode: "40P01",
        kind: "postgres",
        code: "40P01",
      }),
    ],
  ])("%s: true", (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    [
      "unique violation",
      prismaError("P2002", "Unique constraint failed", { kind: "UniqueConstraintViolation" }),
    ],
    [
      "division by zero",
      prismaError("P2010", "Raw query failed. Code: `22012`.", {
        originalCode: "22012",
        kind: "postgres",
        code: "22012",
      }),
    ],
    ["record not found", prismaError("P2025", "No record was found for an update.")],
    ["a bug", new TypeError("Cannot read properties of undefined")],
    ["not an error", "timeout"],
    ["null", null],
  ])("%s: false", (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it("stops following a cycle of causes", () => {
    const a: { cause?: unknown } = {};
    a.cause = a;
    expect(isDatabaseUnavailable(a)).toBe(false);
  });
});
