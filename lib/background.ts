/**
 * Writes a request starts and does not wait for (a key's last use, Better Auth's session
 * bookkeeping): tracked, so that a test, or a server draining, can wait until none is
 * left instead of guessing with a sleep. Kept on globalThis: Next.js bundles modules apart.
 */
import { onDrain } from "./shutdown";

const holder = globalThis as unknown as { __charterBackground?: Set<Promise<unknown>> };

function pending(): Set<Promise<unknown>> {
  holder.__charterBackground ??= new Set();
  return holder.__charterBackground;
}

/** Runs `work` in the background: the caller does not wait, and its failure is the caller's `onError`. */
export function inBackground(work: Promise<unknown>, onError: (error: unknown) => void): void {
  const tracked = work.catch(onError).finally(() => pending().delete(tracked));
  pending().add(tracked);
}

/** Resolves once every background write started so far (and any they started) has finished. */
export async function backgroundSettled(): Promise<void> {
  while (pending().size > 0) await Promise.allSettled([...pending()]);
}

// A server that is stopping finishes them before it exits.
onDrain("background writes", backgroundSettled);
