import { apiKeys, hashApiKey, type StoredKey } from "@/lib/db/api-keys";
import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import { ServiceUnavailableError } from "@/lib/errors";
import { inBackground } from "@/lib/background";
import { log } from "@/lib/log";
import { auth } from "./auth";
import { keyCache, type VerifiedKey } from "./key-cache";
import { asRole, roleAtLeast, scopesAllowedFor, type ApiKeyScope, type Role } from "./roles";
import { isWarmUpKey, WARM_UP_KEY_ID } from "./warm-up";

/** Who is making a request: a signed-in person, or a machine holding an API key. */
export type Caller =
  | { kind: "user"; userId: string; email: string; name: string; role: Role }
  | { kind: "api_key"; keyId: string; name: string; ownerId: string; scopes: ApiKeyScope[] };

/** A signed-in person (pages and actions act only for people). */
export type UserCaller = Extract<Caller, { kind: "user" }>;

/** What a page, route or action demands: a minimum role for people, a scope for API keys. */
export type Access = { role: Role; scope?: ApiKeyScope };

/** Reads an API key from `x-api-key` or `Authorization: Bearer`. */
export function apiKeyFrom(headers: Headers): string | null {
  const direct = headers.get("x-api-key")?.trim();
  if (direct) return direct;
  const bearer = /^Bearer\s+(\S+)$/i.exec(headers.get("authorization") ?? "");
  return bearer?.[1] ?? null;
}

/**
 * The key the old warm-up request carried: refused like any unknown key, without a log
 * line. The warm-up now carries this process's own secret (lib/auth/warm-up.ts).
 */
export const WARM_UP_API_KEY = "chk_warm_up_is_refused";

/** The caller this process's warm-up secret stands for: never looked up, never stored. */
const WARM_UP_CALLER: Caller = {
  kind: "api_key",
  keyId: WARM_UP_KEY_ID,
  name: "warm-up",
  ownerId: "",
  scopes: ["ingest"],
};

/** A key's last-used time is written at most this often per key and instance, after the answer. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * The caller behind a request's headers, or null when there is none or the credential
 * is refused. A credential that could not be checked is never refused: whatever kept the
 * check from finishing (the database down or busy, any unexpected error) throws
 * ServiceUnavailableError (503 with Retry-After).
 */
export async function resolveCaller(headers: Headers): Promise<Caller | null> {
  const key = apiKeyFrom(headers);
  if (key) return resolveApiKey(key);
  const session = await auth()
    .api.getSession({ headers })
    .catch((error: unknown) => {
      throw isDatabaseUnavailable(error) ? new ServiceUnavailableError() : error;
    });
  if (!session) return null;
  const user = session.user as typeof session.user & {
    role?: string | null;
    banned?: boolean | null;
  };
  if (user.banned) return null;
  return {
    kind: "user",
    userId: user.id,
    email: user.email,
    name: user.name,
    role: asRole(user.role),
  };
}

/**
 * A key is found by the hash the api-key plugin stores (hashApiKey), with its
 * owner, in one query, and kept in memory once verified (lib/auth/key-cache.ts); the
 * plugin's own verification is not used: it writes the key's row twice per request
 * and answers "invalid key" for a database it could not ask.
 */
async function resolveApiKey(key: string): Promise<Caller | null> {
  if (isWarmUpKey(key)) return WARM_UP_CALLER;
  let verified: VerifiedKey<Caller> | null;
  try {
    const hash = hashApiKey(key);
    verified = await keyCache.resolve(hash, () => verifyStored(hash));
  } catch (error) {
    keyCheckFailed(error);
    throw new ServiceUnavailableError();
  }
  keyCheckWorks();
  if (!verified) {
    if (key !== WARM_UP_API_KEY)
      log.warn(
        "auth: Failed to validate API key (unknown, revoked or expired, or its owner is blocked or gone)",
      );
    return null;
  }
  touch(verified.caller);
  return verified.caller;
}

/** The stored key for a hash, as a caller, or null when it is unknown, revoked, expired or its owner may not act. */
async function verifyStored(hash: string): Promise<VerifiedKey<Caller> | null> {
  const stored = await apiKeys.verify(hash);
  if (!stored || !usable(stored, Date.now()) || !stored.owner) return null;
  // A key acts with at most its owner's current rights: a blocked owner's key is refused,
  // and a scope the owner's role no longer reaches is dropped (403 on the routes that need it).
  if (stored.owner.blocked) return null;
  return {
    caller: {
      kind: "api_key",
      keyId: stored.id,
      name: stored.name,
      ownerId: stored.ownerId,
      scopes: scopesAllowedFor(stored.scopes, asRole(stored.owner.role)),
    },
    keyId: stored.id,
    ownerId: stored.ownerId,
    expiresAt: stored.expiresAt?.getTime() ?? null,
  };
}

/** The plugin's own rules for a stored key: enabled, not expired, its usage cap (if any) not spent. */
function usable(stored: StoredKey, now: number): boolean {
  if (!stored.enabled || stored.spent) return false;
  return stored.expiresAt === null || stored.expiresAt.getTime() > now;
}

const outage = globalThis as unknown as {
  __charterKeyCheckOutage?: { since: number; failures: number };
};

/** One line per outage, not one per request: the first failure says why, the first success after says how many were answered 503. */
function keyCheckFailed(error: unknown): void {
  if (outage.__charterKeyCheckOutage) {
    outage.__charterKeyCheckOutage.failures++;
    return;
  }
  outage.__charterKeyCheckOutage = { since: Date.now(), failures: 1 };
  if (isDatabaseUnavailable(error)) {
    const reason = error instanceof Error ? error.message.trim().split("\n").at(-1) : String(error);
    log.warn(`API key check could not finish (database unavailable: ${reason}); answering 503`);
  } else log.error("API key check could not finish; answering 503", error);
}

function keyCheckWorks(): void {
  const was = outage.__charterKeyCheckOutage;
  if (!was) return;
  outage.__charterKeyCheckOutage = undefined;
  log.info(
    `API key check works again after ${Math.round((Date.now() - was.since) / 1000)} s (${was.failures} requests answered 503)`,
  );
}

const touched = globalThis as unknown as { __charterKeyTouched?: Map<string, number> };

/** Records the key's last use in the background, at most once per TOUCH_INTERVAL_MS per key; a failure is only logged. */
function touch(caller: Caller): void {
  if (caller.kind !== "api_key" || caller.keyId === WARM_UP_KEY_ID) return;
  const last = (touched.__charterKeyTouched ??= new Map());
  const now = Date.now();
  if (now - (last.get(caller.keyId) ?? 0) < TOUCH_INTERVAL_MS) return;
  last.set(caller.keyId, now);
  inBackground(apiKeys.touch(caller.keyId, new Date(now)), (error: unknown) => {
    // Tried again at the next use after the interval; the answer never waited for it.
    if (!isDatabaseUnavailable(error)) log.error("could not record an API key's last use", error);
  });
}

/** True when the caller may do what `access` demands. API keys only reach routes that name their scope. */
export function allows(caller: Caller, access: Access): boolean {
  if (caller.kind === "user") return roleAtLeast(caller.role, access.role);
  return access.scope !== undefined && caller.scopes.includes(access.scope);
}

/** A short label for the audit log. */
export function callerLabel(caller: Caller): string {
  return caller.kind === "user" ? caller.email : `api-key:${caller.name}`;
}
