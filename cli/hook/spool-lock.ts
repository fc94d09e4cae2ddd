import { acquireLock, type Lock } from "@/lib/lock.mjs";

/** A replay lock untouched for this long was left by a hook that hung or died. */
const STALE_LOCK_MS = 10_000;

/** A held replay lock (lib/lock.mjs); released on release() or when the process exits. */
export type SpoolLock = Lock;

/**
 * Takes the replay lock `file`, retrying until `until` (ms since epoch); a lock whose hook is
 * gone, or untouched for STALE_LOCK_MS, is taken over. Undefined when the lock stayed taken.
 */
export function takeLock(file: string, until: number): Promise<SpoolLock | undefined> {
  return acquireLock(file, { deadline: until, staleMs: STALE_LOCK_MS });
}
