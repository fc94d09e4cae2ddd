import { createHash, randomUUID } from "node:crypto";
import { generateRandomString } from "better-auth/crypto";
import {
  API_KEY_NAME_MAX_LENGTH,
  API_KEY_PREFIX,
  API_KEY_RESOURCE,
  API_KEY_SCOPES,
  apiKeyScopeSchema,
  type ApiKeyScope,
} from "@/lib/auth/roles";
import { BadRequestError, ConflictError, NotFoundError } from "@/lib/errors";
import { auditLog, type Actor } from "./audit";
import { changeBus, type Change } from "./change-bus";
import { db } from "./client";
import type { Tx } from "./transaction";

/**
 * The hash an API key is stored and found by: the api-key plugin's defaultKeyHasher
 * (SHA-256, base64url without padding), computed synchronously. The plugin's goes
 * through WebCrypto's promise, which cost every agent request about 0.2 ms of the
 * server's time.
 */
export function hashApiKey(secret: string): string {
  return createHash("sha256").update(secret).digest("base64url");
}

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

/** A stored key with its owner's standing, as one query finds it (see apiKeys.verify). */
export type StoredKey = {
  id: string;
  name: string;
  enabled: boolean;
  expiresAt: Date | null;
  /** 0 with no refill: the plugin's usage cap is spent (Charter's keys have none). */
  spent: boolean;
  scopes: ApiKeyScope[];
  ownerId: string;
  /** Null when the owner is gone. */
  owner: { role: string | null; blocked: boolean } | null;
};

/** How many leading characters of a key are kept to recognise it in lists (the plugin's default). */
const KEY_START_LENGTH = 6;

/** Serialises first-start setup across server processes that start together. */
const INIT_LOCK = 0x63686b31; // "chk1"

function scopesOf(permissions: string | null): ApiKeyScope[] {
  if (!permissions) return [];
  try {
    const granted = (JSON.parse(permissions) as Record<string, unknown>)[API_KEY_RESOURCE];
    return Array.isArray(granted)
      ? granted.flatMap((s) => (apiKeyScopeSchema.safeParse(s).success ? [s as ApiKeyScope] : []))
      : [];
  } catch {
    return [];
  }
}

/** Letters after the prefix in a key Charter makes: the api-key plugin's own default. */
const GENERATED_KEY_LENGTH = 64;

/**
 * Stores a key (only its hash and first characters) as the api-key plugin stores the keys
 * it makes, audits it and announces it, inside the caller's transaction; returns its id.
 */
async function insertKey(
  tx: Tx,
  key: {
    hashed: string;
    start: string;
    prefixed: boolean;
    name: string;
    scopes: ApiKeyScope[];
    ownerId: string;
  },
  actor: Actor,
  announce: (change: Change) => Promise<void>,
): Promise<string> {
  const id = randomUUID();
  const now = new Date();
  await tx.apikey.create({
    data: {
      id,
      name: key.name,
      start: key.start,
      prefix: key.prefixed ? API_KEY_PREFIX : null,
      key: key.hashed,
      referenceId: key.ownerId,
      enabled: true,
      rateLimitEnabled: false,
      permissions: JSON.stringify({ [API_KEY_RESOURCE]: key.scopes }),
      createdAt: now,
      updatedAt: now,
    },
  });
  await auditLog.append(tx, {
    actor,
    action: "api_key.create",
    objectType: "api_key",
    objectId: id,
    after: { name: key.name, scopes: key.scopes, start: key.start, ownerId: key.ownerId },
  });
  await announce({ topic: "api_key", id });
  return id;
}

/**
 * API keys for machine callers. The key itself is shown once, at creation; the
 * database keeps only its hash (Better Auth's api-key plugin) and first characters.
 */
export const apiKeys = {
  async list(): Promise<ApiKeyRow[]> {
    const rows = await db().apikey.findMany({ orderBy: { createdAt: "desc" } });
    const owners = await db().user.findMany({
      where: { id: { in: rows.map((r) => r.referenceId) } },
      select: { id: true, email: true },
    });
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

  /**
   * Creates a key owned by `ownerId` (default: the acting user); returns the full key,
   * which is never stored. Check the name with createApiKeySchema first.
   */
  async create(
    input: { name: string; scopes: ApiKeyScope[]; ownerId?: string },
    actor: Actor,
  ): Promise<{ id: string; key: string }> {
    const ownerId = input.ownerId ?? actor.id;
    if (!ownerId) throw new BadRequestError("An API key needs an owner.");
    // The form and the CLI check these too; a caller that does not still gets a clear 400, never the plugin's 500.
    if (input.scopes.length === 0)
      throw new BadRequestError(
        `An API key needs at least one scope (${API_KEY_SCOPES.join(", ")}).`,
      );
    if (input.name.trim() === "" || input.name.length > API_KEY_NAME_MAX_LENGTH)
      throw new BadRequestError(
        `An API key's name must be 1 to ${API_KEY_NAME_MAX_LENGTH} characters.`,
      );
    // The key, its owner check and its audit row in one transaction: no key exists unaudited.
    const secret = `${API_KEY_PREFIX}${generateRandomString(GENERATED_KEY_LENGTH, "a-z", "A-Z")}`;
    const hashed = hashApiKey(secret);
    const id = await changeBus.transaction(async (tx, announce) => {
      const owner = await tx.user.findUnique({ where: { id: ownerId }, select: { id: true } });
      if (!owner) throw new BadRequestError(`No user ${ownerId} to own the API key.`);
      return insertKey(
        tx,
        { hashed, start: secret.slice(0, KEY_START_LENGTH), prefixed: true, ...input, ownerId },
        actor,
        announce,
      );
    });
    return { id, key: secret };
  },

  /**
   * Stores a key whose secret was chosen outside Charter (CHARTER_INIT_API_KEY), hashed
   * the way the api-key plugin hashes the keys it makes, unless a key with that secret
   * exists: then nothing changes, so a key revoked since stays revoked.
   */
  async ensure(
    input: { secret: string; name: string; scopes: ApiKeyScope[]; ownerId: string },
    actor: Actor,
  ): Promise<{ id: string; created: boolean }> {
    const hashed = hashApiKey(input.secret);
    return changeBus.transaction(async (tx, announce) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${INIT_LOCK})`;
      const existing = await tx.apikey.findFirst({ where: { key: hashed }, select: { id: true } });
      if (existing) return { id: existing.id, created: false };
      const id = await insertKey(
        tx,
        {
          hashed,
          start: input.secret.slice(0, KEY_START_LENGTH),
          prefixed: input.secret.startsWith(API_KEY_PREFIX),
          name: input.name,
          scopes: input.scopes,
          ownerId: input.ownerId,
        },
        actor,
        announce,
      );
      return { id, created: true };
    });
  },

  /**
   * The key an id or a name refers to: an id first, else the one key still in use
   * with that name (names need not be unique, so several are a conflict).
   */
  async resolve(ref: string): Promise<ApiKeyRow> {
    const rows = await this.list();
    const byId = rows.find((row) => row.id === ref);
    if (byId) return byId;
    const named = rows.filter((row) => row.name === ref);
    const [only, ...more] = named.some((row) => row.enabled)
      ? named.filter((row) => row.enabled)
      : named;
    if (!only) throw new NotFoundError(`No API key has the id or name "${ref}".`);
    if (more.length > 0)
      throw new ConflictError(
        `${more.length + 1} keys are named "${ref}"; give one of their ids: ${[only, ...more].map((row) => row.id).join(", ")}.`,
      );
    return only;
  },

  /** Revokes a key for good: it stays listed, disabled, and is refused with 401. Returns false when it already was. */
  async revoke(id: string, actor: Actor): Promise<boolean> {
    return changeBus.transaction(async (tx, announce) => {
      const row = await tx.apikey.findUnique({ where: { id } });
      if (!row) throw new NotFoundError(`No API key with id ${id}.`);
      if (row.enabled === false) return false;
      await tx.apikey.update({ where: { id }, data: { enabled: false, updatedAt: new Date() } });
      await auditLog.append(tx, {
        actor,
        action: "api_key.revoke",
        objectType: "api_key",
        objectId: id,
        before: { enabled: true },
        after: { enabled: false },
      });
      await announce({ topic: "api_key", id });
      return true;
    });
  },

  /**
   * The key stored under a hash (hashApiKey of the secret) with its
   * owner's role and blocked state, in one query; null when no key has that hash. It
   * decides nothing: lib/auth/caller.ts applies the rules.
   */
  async verify(hash: string): Promise<StoredKey | null> {
    const rows = await db().$queryRaw<
      {
        id: string;
        name: string | null;
        enabled: boolean | null;
        expiresAt: Date | null;
        remaining: number | null;
        refillAmount: number | null;
        permissions: string | null;
        referenceId: string;
        ownerId: string | null;
        role: string | null;
        banned: boolean | null;
      }[]
    >`SELECT k.id, k.name, k.enabled, k."expiresAt", k.remaining, k."refillAmount", k.permissions,
             k."referenceId", u.id AS "ownerId", u.role, u.banned
        FROM apikey k LEFT JOIN "user" u ON u.id = k."referenceId"
       WHERE k.key = ${hash}
       LIMIT 1`;
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id,
      name: row.name ?? row.id,
      enabled: row.enabled !== false,
      expiresAt: row.expiresAt,
      spent: row.remaining === 0 && row.refillAmount === null,
      scopes: scopesOf(row.permissions),
      ownerId: row.referenceId,
      owner: row.ownerId === null ? null : { role: row.role, blocked: row.banned === true },
    };
  },

  /** Records a key's last use (shown on the API keys page); never moves it back. */
  async touch(id: string, at: Date): Promise<void> {
    await db().$executeRaw`UPDATE apikey SET "lastRequest" = ${at}
      WHERE id = ${id} AND ("lastRequest" IS NULL OR "lastRequest" < ${at})`;
  },
} as const;
