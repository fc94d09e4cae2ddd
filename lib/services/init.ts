import { ensureAdmin } from "@/lib/auth/bootstrap";
import { apiKeys } from "@/lib/db/api-keys";
import type { Actor } from "@/lib/db/audit";
import { env, initApiKey, type Env } from "@/lib/env";
import { log } from "@/lib/log";

/** Who the audit log names for what the CHARTER_INIT_* variables set up. */
export const INIT_ACTOR: Actor = { id: null, label: "env:CHARTER_INIT" };

export type InitOutcome = { apiKey: { id: string; name: string; created: boolean } | null };

/**
 * Applies the CHARTER_INIT_* variables (a headless first start, like Langfuse's
 * LANGFUSE_INIT_*): the key in CHARTER_INIT_API_KEY is stored, hashed and owned by
 * the first admin (CHARTER_ADMIN_EMAIL on a fresh database), unless a key with that
 * secret exists. Idempotent: a second start changes nothing, and a key revoked since
 * stays revoked. Everything it creates is audited as INIT_ACTOR.
 */
export async function applyInit(e: Env = env()): Promise<InitOutcome> {
  const wanted = initApiKey(e);
  if (!wanted) return { apiKey: null };
  const owner = await ensureAdmin(e.CHARTER_ADMIN_EMAIL, INIT_ACTOR);
  const stored = await apiKeys.ensure(
    { secret: wanted.secret, name: wanted.name, scopes: wanted.scopes, ownerId: owner.id },
    INIT_ACTOR,
  );
  return { apiKey: { id: stored.id, name: wanted.name, created: stored.created } };
}

/** applyInit at server start: says what it stored, and never stops the server (a later start tries again). */
export async function applyInitOnStart(): Promise<void> {
  try {
    const { apiKey } = await applyInit();
    if (apiKey?.created)
      log.info(`CHARTER_INIT_API_KEY stored as API key "${apiKey.name}" (${apiKey.id})`);
  } catch (error) {
    log.error("could not apply the CHARTER_INIT_* settings", error);
  }
}
