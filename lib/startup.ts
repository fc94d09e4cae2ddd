/**
 * Whether this server process is still getting ready (migrations done, retrieval
 * index being built). Kept on globalThis: Next.js bundles the instrumentation hook
 * and the routes apart, and both must see the same flag.
 */
const startup = globalThis as unknown as { __charterStarting?: boolean };

export function markStarting(starting: boolean): void {
  startup.__charterStarting = starting;
}

/** False while the server is still getting ready (GET /api/health answers 503 "starting" meanwhile). */
export function serverReady(): boolean {
  return !startup.__charterStarting;
}
