import { apiKey } from "@better-auth/api-key";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { admin, magicLink } from "better-auth/plugins";
import { createAccessControl } from "better-auth/plugins/access";
import { adminAc, defaultStatements } from "better-auth/plugins/admin/access";
import { db } from "@/lib/db/client";
import { baseUrl, env } from "@/lib/env";
import { log } from "@/lib/log";
import { deliverSignInLink } from "./links";

/** Sign-in links are single use and live this long. */
export const SIGN_IN_LINK_TTL_SECONDS = 60 * 60;

const ac = createAccessControl(defaultStatements);
const noUserManagement = ac.newRole({ user: [], session: [] });

// Only admins manage users; the finer ranks (viewer < editor < approver) are
// Charter's own and are checked by lib/auth/roles.ts in the action client and route wrapper.
const roles = { viewer: noUserManagement, editor: noUserManagement, approver: noUserManagement, admin: adminAc };

/**
 * Better Auth's log lines, through Charter's logger. A refused credential is routine
 * (a revoked key, an expired link): one warning line, no stack trace.
 */
function authLog(level: "debug" | "info" | "warn" | "error", message: string, ...args: unknown[]): void {
  const first = args[0];
  const reason = first instanceof Error ? first.message : undefined;
  if (level === "error" && !/failed to validate api key/i.test(message)) {
    log.error(`auth: ${message}`, first);
    return;
  }
  if (level === "error" || level === "warn") log.warn(`auth: ${message}${reason ? ` (${reason})` : ""}`);
}

function createAuth() {
  const secret = env().BETTER_AUTH_SECRET;
  if (!secret) throw new Error("BETTER_AUTH_SECRET is not set: start Charter with `charter serve`, which generates one.");
  return betterAuth({
    appName: "Charter",
    baseURL: baseUrl(),
    secret,
    database: prismaAdapter(db(), { provider: "postgresql" }),
    telemetry: { enabled: false },
    logger: { level: "warn", log: authLog },
    session: { expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 },
    plugins: [
      admin({ ac, roles, defaultRole: "viewer", adminRoles: ["admin"] }),
      magicLink({
        expiresIn: SIGN_IN_LINK_TTL_SECONDS,
        disableSignUp: true,
        storeToken: "hashed",
        sendMagicLink: ({ email, url }) => deliverSignInLink(email, url),
      }),
      apiKey({
        defaultPrefix: "chk_",
        enableMetadata: true,
        // Machine callers (hooks, batch ingestion) send many requests: no daily cap.
        rateLimit: { enabled: false },
        keyExpiration: { defaultExpiresIn: null },
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
