import { auth } from "@/lib/auth/auth";
import { API_KEY_RESOURCE, apiKeyScopeSchema, type ApiKeyScope } from "@/lib/auth/roles";
import { NotFoundError } from "@/lib/errors";
import { auditLog, type Actor } from "./audit";
import { db } from "./client";

export type ApiKeyRow = {
  id: string;
  name: string;
  start: string | null;
  scopes: ApiKeyScope[];
  enabled: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
  ownerEmail: string | null;
};

function scopesOf(permissions: string | null): ApiKeyScope[] {
  if (!permissions) return [];
  try {
    const granted = (JSON.parse(permissions) as Record<string, unknown>)[API_KEY_RESOURCE];
    return Array.isArray(granted) ? granted.flatMap((s) => (apiKeyScopeSchema.safeParse(s).success ? [s as ApiKeyScope] : [])) : [];
  } catch {
    return [];
  }
}

/**
 * API keys for machine callers. The key itself is shown once, at creation; the
 * database keeps only its hash (Better Auth's api-key plugin) and first characters.
 */
export const apiKeys = {
  async list(): Promise<ApiKeyRow[]> {
    const rows = await db().apikey.findMany({ orderBy: { createdAt: "desc" } });
    const owners = await db().user.findMany({ where: { id: { in: rows.map((r) => r.referenceId) } }, select: { id: true, email: true } });
    const emailOf = new Map(owners.map((o) => [o.id, o.email]));
    return rows.map((row) => ({
      id: row.id,
      name: row.name ?? row.id,
      start: row.start,
      scopes: scopesOf(row.permissions),
      enabled: row.enabled ?? false,
      createdAt: row.createdAt,
      lastUsedAt: row.lastRequest,
      ownerEmail: emailOf.get(row.referenceId) ?? null,
    }));
  },

  /** Creates a key owned by the acting admin; returns the full key, which is never stored. */
  async create(input: { name: string; scopes: ApiKeyScope[] }, actor: Actor & { id: string }): Promise<{ id: string; key: string }> {
    const created = await auth().api.createApiKey({
      body: { name: input.name, userId: actor.id, permissions: { [API_KEY_RESOURCE]: [...input.scopes] } },
    });
    await db().$transaction((tx) =>
      auditLog.append(tx, { actor, action: "api_key.create", objectType: "api_key", objectId: created.id, after: { name: input.name, scopes: input.scopes, start: created.start } }),
    );
    return { id: created.id, key: created.key };
  },

  /** Revokes a key for good: it stays listed, disabled, and is refused with 401. */
  async revoke(id: string, actor: Actor): Promise<void> {
    await db().$transaction(async (tx) => {
      const row = await tx.apikey.findUnique({ where: { id } });
      if (!row) throw new NotFoundError(`No API key with id ${id}.`);
      if (row.enabled === false) return;
      await tx.apikey.update({ where: { id }, data: { enabled: false, updatedAt: new Date() } });
      await auditLog.append(tx, { actor, action: "api_key.revoke", objectType: "api_key", objectId: id, before: { enabled: true }, after: { enabled: false } });
    });
  },
} as const;
