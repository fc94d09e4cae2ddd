import { AsyncLocalStorage } from "node:async_hooks";
import { apiKey } from "@better-auth/api-key";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { admin, magicLink } from "better-auth/plugins";
import { createAccessControl } from "better-auth/plugins/access";
import { adminAc, defaultStatements } from "better-auth/plugins/admin/access";
import { db } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/db/generated/prisma/client";
import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import { baseUrl, env } from "@/lib/env";
import { log } from "@/lib/log";
import { deliverSignInLink } from "./links";
import { API_KEY_NAME_MAX_LENGTH, API_KEY_PREFIX } from "./roles";

/** Sign-in links are single use and live this long. */
export const SIGN_IN_LINK_TTL_SECONDS = 60 * 60;

const ac = createAccessControl(defaultStatements);
const noUserManagement = ac.newRole({ user: [], session: [] });

// Only admins manage users; the finer ranks (viewer < editor < approver) are
// Charter's own and are checked by lib/auth/roles.ts in the action client and route wrapper.
const roles = { viewer: noUserManagement, editor: noUserManagement, approver: noUserManagement, admin: adminAc };

/** An error Better Auth logged and then swallowed, with the line it logged it under. */
export type SwallowedError = { message: string; error: unknown };

const swallowed = new AsyncLocalStorage<SwallowedError[]>();

/**
 * Runs a Better Auth call and returns what it logged at error level meanwhile.
 * `verifyApiKey` answers `{valid: false}` for any failure, a database that could not
 * be asked included; what it logged tells a refused key from an unchecked one.
 */
export async function withSwallowedErrors<T>(call: () => Promise<T>): Promise<{ result: T; errors: SwallowedError[] }> {
  const errors: SwallowedError[] = [];
  const result = await swallowed.run(errors, call);
  return { result, errors };
}

/**
 * Better Auth's log lines, through Charter's logger. A refused credential is routine
 * (a revoked key, an expired link): one warning line, no stack trace.
 */
function authLog(level: "debug" | "info" | "warn" | "error", message: string, ...args: unknown[]): void {
  const first = args[0];
  if (level === "error") swallowed.getStore()?.push({ message, error: first });
  // The caller turns these into a 503 and the route wrapper logs them, once in a while.
  if (isDatabaseUnavailable(first)) return;
  const reason = first instanceof Error ? first.message : undefined;
  if (level === "error" && !/failed to validate api key/i.test(message)) {
    log.error(`auth: ${message}`, first);
    return;
  }
  if (level === "error" || level === "warn") log.warn(`auth: ${message}${reason ? ` (${reason})` : ""}`);
}

/**
 * The process's Prisma client, looked up on every use, so that Better Auth follows
 * `closeDb` and `switchDatabase` instead of keeping a client that was closed.
 */
const currentDb = new Proxy({} as PrismaClient, {
  get(_, property) {
    const client = db();
    const value: unknown = Reflect.get(client, property, client);
    return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(client) : value;
  },
});

function createAuth() {
  const secret = env().BETTER_AUTH_SECRET;
  if (!secret) throw new Error("BETTER_AUTH_SECRET is not set: start Charter with `charter serve`, which generates one.");
  return betterAuth({
    appName: "Charter",
    baseURL: baseUrl(),
    secret,
    database: prismaAdapter(currentDb, { provider: "postgresql" }),
    telemetry: { enabled: false },
    logger: { level: "warn", log: authLog },
    session: { expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 },
    // Bookkeeping writes (an API key's last-used time) run after the answer; a failed one is logged.
    advanced: { backgroundTasks: { handler: (task) => void task.catch((error: unknown) => authLog("warn", "background task failed", error)) } },
    plugins: [
      admin({ ac, roles, defaultRole: "viewer", adminRoles: ["admin"] }),
      magicLink({
        expiresIn: SIGN_IN_LINK_TTL_SECONDS,
        disableSignUp: true,
        storeToken: "hashed",
        sendMagicLink: ({ email, url }) => deliverSignInLink(email, url),
      }),
      apiKey({
        defaultPrefix: API_KEY_PREFIX,
        // The plugin's own limit is 32: a longer name the form accepted would fail as a server error.
        maximumNameLength: API_KEY_NAME_MAX_LENGTH,
        enableMetadata: true,
        // Machine callers (hooks, batch ingestion) send many requests: no daily cap.
        rateLimit: { enabled: false },
        keyExpiration: { defaultExpiresIn: null },
        // A key's last-used time is written after the answer: two fewer database round trips on every agent event.
        deferUpdates: true,
      }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

const globalAuth = globalThis as unknown as { __charterAuth?: Auth };

/** The Better Auth instance, created on first use so that builds never open the database. */
export function auth(): Auth {
  globalAuth.__charterAuth ??= createAuth();
  return globalAuth.__charterAuth;
}
