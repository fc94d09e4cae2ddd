/**
 * Where this server process is in its life, for GET /api/health (a load balancer's
 * readiness check): "starting" until the real ingestion path answered once (or the
 * warm-up gave up), "ready", then "draining" from SIGTERM/SIGINT until exit. Kept on
 * globalThis: Next.js bundles the instrumentation hook and the routes apart, and both
 * must see the same state.
 */
export type ServerState = "starting" | "ready" | "draining";

const holder = globalThis as unknown as { __charterServerState?: ServerState };

/** Moves the state on; "draining" is final (a late warm-up never makes a draining server ready). */
export function setServerState(state: ServerState): void {
  if (holder.__charterServerState === "draining") return;
  holder.__charterServerState = state;
}

/**
 * This process's state. A process where nothing set one (a route test, `next dev`
 * before instrumentation ran) counts as ready.
 */
export function serverState(): ServerState {
  return holder.__charterServerState ?? "ready";
}
