import { randomBytes } from "node:crypto";

/**
 * The server's own warm-up credential: a secret made once per process (kept on
 * globalThis, since Next.js bundles the instrumentation hook and the routes apart),
 * never stored and never valid in another process. lib/server-start.ts sends one event
 * with it through the real ingestion route before /api/health says ready; the route
 * runs the whole path (key check, retrieval, every statement) and rolls it back, so
 * the first agent's prompt finds everything warm and nothing is recorded.
 */
export const WARM_UP_KEY_ID = "charter-warm-up";

const holder = globalThis as unknown as { __charterWarmUpKey?: string };

/** This process's warm-up secret. */
export function warmUpKey(): string {
  holder.__charterWarmUpKey ??= `chk_warm_up_${randomBytes(24).toString("base64url")}`;
  return holder.__charterWarmUpKey;
}

/** True for this process's warm-up secret only (a constant-time comparison is not needed: it never leaves the process). */
export function isWarmUpKey(key: string): boolean {
  return holder.__charterWarmUpKey !== undefined && key === holder.__charterWarmUpKey;
}
