import type http from "node:http";
import { beforeEachRequest } from "@/lib/node-requests";
import { lifecycle } from "@/lib/db/lifecycle";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { drainAll } from "@/lib/shutdown";
import { serverState, setServerState } from "@/lib/startup";

/**
 * Draining on SIGTERM and SIGINT, for `next start` (`charter serve` sets
 * NEXT_MANUAL_SIG_HANDLE, so Next.js leaves the signals to us: its own handler closes
 * the listener at once, so a balancer could not read "draining", never runs our
 * drains, and exits 143). The order: /api/health answers 503 "draining"; new
 * requests are refused with 503 + Retry-After (a hook spools and resends, through the
 * balancer, to another instance); requests in flight finish; the listener closes;
 * drainAll() writes what was buffered (group commit) and closes listeners; exit 0.
 * CHARTER_DRAIN_TIMEOUT_MS bounds the whole; past it the process exits 1 and says what
 * was still open.
 */

type Tracker = { inFlight: number; servers: Set<http.Server>; idle: Set<() => void> };

const holder = globalThis as unknown as { __charterDrain?: Tracker };

/** Readiness checks pass while draining (they answer "draining"); everything else is refused. */
const HEALTH_PATH = "/api/health";

function tracker(): Tracker {
  holder.__charterDrain ??= { inFlight: 0, servers: new Set(), idle: new Set() };
  return holder.__charterDrain;
}

/** Requests this process is answering now. */
export function requestsInFlight(): number {
  return tracker().inFlight;
}

function refuse(res: http.ServerResponse): void {
  const body = JSON.stringify({
    error: {
      code: "unavailable",
      message: "This instance is shutting down; send the request again.",
    },
  });
  res.writeHead(503, {
    "content-type": "application/json",
    "retry-after": "1",
    connection: "close",
    "content-length": Buffer.byteLength(body),
  });
  res.end(body);
}

/**
 * Counts every request an HTTP server in this process takes until its response closes,
 * and refuses new ones (except the readiness check) once draining. Installed where Node
 * hands a request to the server: `next start` owns the server, and no route sees it.
 */
export function installRequestTracking(): void {
  const t = tracker();
  beforeEachRequest("drain tracking", (req, res, pass, server) => {
    t.servers.add(server);
    if (serverState() === "draining" && !req.url?.startsWith(HEALTH_PATH)) return refuse(res);
    t.inFlight += 1;
    res.once("close", () => {
      t.inFlight -= 1;
      if (t.inFlight === 0) for (const wake of t.idle) wake();
    });
    pass();
  });
}

/** Resolves when no request is in flight, or false at `deadline`. */
function idleBy(deadline: number): Promise<boolean> {
  const t = tracker();
  if (t.inFlight === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (idle: boolean) => {
      clearTimeout(timer);
      t.idle.delete(wake);
      resolve(idle);
    };
    const wake = () => done(true);
    const timer = setTimeout(() => done(false), Math.max(0, deadline - Date.now()));
    t.idle.add(wake);
  });
}

function within<T>(work: Promise<T>, deadline: number): Promise<T | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), Math.max(0, deadline - Date.now()));
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The drain itself; resolves with the exit code. Exported for the process-level test. */
export async function drainServer(signal: string, stopWorkers: () => void): Promise<number> {
  setServerState("draining");
  const t = tracker();
  const timeoutMs = env().CHARTER_DRAIN_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  log.info(
    `${signal}: draining (${t.inFlight} request(s) in flight; at most ${Math.round(timeoutMs / 1000)} s), /api/health answers 503 draining`,
  );
  stopWorkers();
  const idle = await idleBy(deadline);
  for (const server of t.servers) {
    server.close();
    server.closeIdleConnections();
  }
  const drained = await within(drainAll(), deadline);
  let clean = idle && drained !== "timeout";
  if (drained !== "timeout")
    for (const { name, error } of drained)
      if (error) {
        clean = false;
        log.error(`drain "${name}" failed`, error);
      }
  if (!idle) log.warn(`drain timed out with ${t.inFlight} request(s) still in flight`);
  if (drained === "timeout") log.warn("drain timed out before the buffered work was written");
  await within(lifecycle.close(), deadline + 1_000).catch(() => undefined);
  log.info(clean ? "drained; exiting" : "exiting before the drain finished");
  return clean ? 0 : 1;
}

const signals = globalThis as unknown as { __charterSignals?: boolean };

/**
 * Takes SIGTERM and SIGINT over in this (the Next.js server) process. Next's own handlers,
 * present when NEXT_MANUAL_SIG_HANDLE was not set (a plain `next start`), are removed:
 * they close the listener at once and exit 143 before the buffers are written.
 */
export function installSignalDrain(stopWorkers: () => void): void {
  if (signals.__charterSignals) return;
  signals.__charterSignals = true;
  let draining: Promise<void> | null = null;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => {
      // A second signal (the shell and `charter serve` both forward Ctrl-C) joins the drain under way.
      draining ??= drainServer(signal, stopWorkers).then((code) => process.exit(code));
    });
  }
}
