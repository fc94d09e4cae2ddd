import { z } from "zod";

/** Roles from least to most trusted; each role can do everything the ones before it can. */
export const ROLES = ["viewer", "editor", "approver", "admin"] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

/** What each role is for, shown on the Users page. */
export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  viewer: "Reads every page.",
  editor: "Edits the constitution and playbook, overrides turn scores.",
  approver: "Approves pruning and rolls back constitution versions.",
  admin: "Manages users, API keys and weights.",
};

/** API key scopes for machine callers. */
export const API_KEY_SCOPES = ["ingest", "read"] as const;
export const apiKeyScopeSchema = z.enum(API_KEY_SCOPES);
export type ApiKeyScope = z.infer<typeof apiKeyScopeSchema>;

/**
 * The least role a key's owner must hold, now, for the key to use a scope: a key acts
 * with at most its owner's current rights. `read` reaches what every page shows
 * (turns, recompute status, the OpenAPI document): viewer. `ingest` writes sessions,
 * turns and scores through POST /api/v1/events, which a person needs editor for.
 */
export const API_KEY_SCOPE_MIN_ROLE: Record<ApiKeyScope, Role> = {
  read: "viewer",
  ingest: "editor",
};

/** The scopes of `granted` that an owner holding `role` may still use. */
export function scopesAllowedFor(granted: readonly ApiKeyScope[], role: Role): ApiKeyScope[] {
  return granted.filter((scope) => roleAtLeast(role, API_KEY_SCOPE_MIN_ROLE[scope]));
}

/** The permission resource under which API key scopes are stored. */
export const API_KEY_RESOURCE = "charter";

/** The longest name an API key may have (the form, the CLI and the api-key plugin agree). */
export const API_KEY_NAME_MAX_LENGTH = 64;

/** The prefix of the API keys Charter makes. */
export const API_KEY_PREFIX = "chk_";

/** True when `role` ranks at or above `minimum`; unknown roles rank below viewer. */
export function roleAtLeast(role: string | null | undefined, minimum: Role): boolean {
  const rank = ROLES.indexOf(role as Role);
  return rank >= 0 && rank >= ROLES.indexOf(minimum);
}

/** Narrows a stored role string; anything unknown is treated as the least trusted role. */
export function asRole(role: string | null | undefined): Role {
  const parsed = roleSchema.safeParse(role);
  return parsed.success ? parsed.data : "viewer";
}
