import { isAPIError } from "better-auth/api";
import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import { ServiceUnavailableError } from "@/lib/errors";
import { users } from "@/lib/db/users";
import {
  API_KEY_RESOURCE,
  apiKeyScopeSchema,
  asRole,
  roleAtLeast,
  scopesAllowedFor,
  type ApiKeyScope,
  type Role,
} from "./roles";
import { auth, withSwallowedErrors } from "./auth";

/** Who is making a request: a signed-in person, or a machine holding an API key. */
export type Caller =
  | { kind: "user"; userId: string; email: string; name: string; role: Role }
  | { kind: "api_key"; keyId: string; name: string; ownerId: string; scopes: ApiKeyScope[] };

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
 * The caller behind a request's headers, or null when there is none or the credential
 * is refused. A credential that could not be checked is never refused: a database
 * that could not be asked throws ServiceUnavailableError (503), anything else throws.
 */
/**
 * The key the server's own warm-up request carries (lib/server-start.ts): checked and
 * refused like any other, so the key check is ready, but its refusal is not logged.
 */
export const WARM_UP_API_KEY = "chk_warm_up_is_refused";

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

async function resolveApiKey(key: string): Promise<Caller | null> {
  const { result, errors } = await withSwallowedErrors(
    () => auth().api.verifyApiKey({ body: { key } }),
    { quiet: key === WARM_UP_API_KEY },
  );
  if (!result.valid || !result.key) {
    // The plugin answers `valid: false` for every failure; only an APIError is a refusal.
    const unchecked = errors.find((e) => e.error !== undefined && !isAPIError(e.error))?.error;
    if (unchecked === undefined) return null;
    throw isDatabaseUnavailable(unchecked) ? new ServiceUnavailableError() : unchecked;
  }
  const granted =
    (result.key.permissions as Record<string, string[]> | null)?.[API_KEY_RESOURCE] ?? [];
  const stored = granted.flatMap((s) => {
    const parsed = apiKeyScopeSchema.safeParse(s);
    return parsed.success ? [parsed.data] : [];
  });
  // A key acts with at most its owner's current rights: a missing or blocked owner's key is refused,
  // and a scope the owner's role no longer reaches is dropped (403 on the routes that need it).
  const owner = await users.standing(result.key.referenceId).catch((error: unknown) => {
    throw isDatabaseUnavailable(error) ? new ServiceUnavailableError() : error;
  });
  if (!owner || owner.blocked) return null;
  const scopes = scopesAllowedFor(stored, owner.role);
  return {
    kind: "api_key",
    keyId: result.key.id,
    name: result.key.name ?? result.key.id,
    ownerId: result.key.referenceId,
    scopes,
  };
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
