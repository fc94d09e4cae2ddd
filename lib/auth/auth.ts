import { apiKey } from "@better-auth/api-key";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { APIError, createAuthMiddleware, isAPIError } from "better-auth/api";
import { admin, magicLink } from "better-auth/plugins";
import { createAccessControl } from "better-auth/plugins/access";
import { defaultStatements } from "better-auth/plugins/admin/access";
import { db } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/db/generated/prisma/client";
import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import { users } from "@/lib/db/users";
import { baseUrl, env } from "@/lib/env";
import { inBackground } from "@/lib/background";
import { log } from "@/lib/log";
import { CLIENT_IP_HEADER } from "./client-ip";
import { deliverSignInLink, isCapturedRequest } from "./links";
import { API_KEY_NAME_MAX_LENGTH, API_KEY_PREFIX } from "./roles";

/** Sign-in links are single use and live this long. */
export const SIGN_IN_LINK_TTL_SECONDS = 60 * 60;

const ac = createAccessControl(defaultStatements);
const noUserManagement = ac.newRole({ user: [], session: [] });
// Impersonation is off: an impersonated session would put the wrong person in the audit log.
const adminWithoutImpersonation = ac.newRole({
  user: [
    "create",
    "list",
    "set-role",
    "ban",
    "delete",
    "set-password",
    "set-email",
    "set-phone",
    "get",
    "update",
  ],
  session: ["list", "revoke", "delete"],
});

// Better Auth's admin endpoints are not served (lib/auth/endpoints.ts): Charter's actions change
// users. The finer ranks (viewer < editor < approver) are Charter's own and are checked by
// lib/auth/roles.ts in the action client and route wrapper.
const roles = {
  viewer: noUserManagement,
  editor: noUserManagement,
  approver: noUserManagement,
  admin: adminWithoutImpersonation,
};

/** Said to whoever asks the sign-in page for a link for an address that has no account. */
export const NOT_INVITED_MESSAGE =
  "This address is not invited to Charter: ask an admin to add you on the Users page.";

/**
 * Answers the sign-in page before a link is made. An address with no account (sign-up
 * is closed) is refused; an invited one is told so, and no link is made, since Charter
 * sends no e-mail: only an admin's action or the CLI, which capture the link they ask
 * for (lib/auth/links.ts), reach the plugin. An anonymous caller learns whether an
 * address is invited, and nothing else (not its role, not whether it is blocked): on a
 * closed team tool that spares a person waiting for a link that can never work, and the
 * per-address rate limit on this path (5 a minute) keeps guessing slow.
 */
const answerSignInPage = createAuthMiddleware(async (ctx) => {
  if (ctx.path !== "/sign-in/magic-link") return;
  const body = ctx.body as { email?: unknown; metadata?: unknown } | undefined;
  if (isCapturedRequest(body?.metadata)) return;
  const email = typeof body?.email === "string" ? body.email : "";
  const found = email
    ? await ctx.context.internalAdapter.findUserByEmail(email.toLowerCase())
    : null;
  if (!found)
    throw new APIError("FORBIDDEN", { code: "NOT_INVITED", message: NOT_INVITED_MESSAGE });
  // The plugin's own answer, without its link.
  return { status: true };
});

/**
 * Better Auth's answer to a refused request (a wrong or used link, a not-invited address,
 * a rate limit) is routine: it is not logged. Only a server error is.
 */
function onAuthApiError(error: unknown): void {
  if (isAPIError(error) && error.statusCode < 500) return;
  if (isDatabaseUnavailable(error)) return;
  log.error("auth: request failed", error);
}

/** A session is made only by a sign-in link (every other way in is closed): each is an audited sign-in. */
async function auditSignIn(session: { userId: string; ipAddress?: string | null }): Promise<void> {
  await users.recordSession("sign_in", session.userId, { ip: session.ipAddress });
}

/**
 * Better Auth's log lines, through Charter's logger. A refused credential is routine
 * (a revoked key, an expired link): one warning line, no stack trace.
 */
function authLog(
  level: "debug" | "info" | "warn" | "error",
  message: string,
  ...args: unknown[]
): void {
  const first = args[0];
  // The caller turns these into a 503 and the route wrapper logs them, once in a while.
  if (isDatabaseUnavailable(first)) return;
  const reason = first instanceof Error ? first.message : undefined;
  if (level === "error" && !/failed to validate api key/i.test(message)) {
    log.error(`auth: ${message}`, first);
    return;
  }
  if (level === "error" || level === "warn")
    log.warn(`auth: ${message}${reason ? ` (${reason})` : ""}`);
}

/**
 * The process's Prisma client, looked up on every use, so that Better Auth follows
 * `closeDb` and `switchDatabase` instead of keeping a client that was closed.
 */
const currentDb = new Proxy({} as PrismaClient, {
  get(_, property) {
    const client = db();
    const value: unknown = Reflect.get(client, property, client);
    return typeof value === "function"
      ? (value as (...args: unknown[]) => unknown).bind(client)
      : value;
  },
});

function createAuth() {
  const secret = env().BETTER_AUTH_SECRET;
  if (!secret)
    throw new Error(
      "BETTER_AUTH_SECRET is not set: start Charter with `charter serve`, which generates one.",
    );
  return betterAuth({
    appName: "Charter",
    baseURL: baseUrl(),
    secret,
    database: prismaAdapter(currentDb, { provider: "postgresql" }),
    telemetry: { enabled: false },
    logger: { level: "warn", log: authLog },
    session: { expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 },
    advanced: {
      // Bookkeeping writes (an API key's last-used time) run after the answer; a failed one is logged.
      backgroundTasks: {
        handler: (task) =>
          inBackground(task, (error: unknown) => authLog("warn", "background task failed", error)),
      },
      // Rate limits key on the address the server stamped from the socket (lib/auth/client-ip.ts),
      // never on a header the client chose; without the stamp every caller shares one bucket.
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    // On in every environment (Better Auth's default is production only), so that tests measure it.
    rateLimit: { enabled: true },
    hooks: { before: answerSignInPage },
    onAPIError: { onError: onAuthApiError },
    databaseHooks: { session: { create: { after: auditSignIn } } },
    disabledPaths: ["/admin/impersonate-user", "/admin/stop-impersonating"],
    plugins: [
      admin({ ac, roles, defaultRole: "viewer", adminRoles: ["admin"] }),
      magicLink({
        expiresIn: SIGN_IN_LINK_TTL_SECONDS,
        disableSignUp: true,
        storeToken: "hashed",
        sendMagicLink: ({ email, url, metadata }) => deliverSignInLink(email, url, metadata),
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
