import http from "node:http";
import { health } from "@/lib/db/health";
import { DATABASE_RETRY_AFTER_SECONDS } from "@/lib/errors";
import { BASE_SECURITY_HEADERS, NO_CONTENT_CSP } from "./security-headers";

/** A health answer is reused this long, so a busy dashboard asks the database at most once a second. */
const CHECK_TTL_MS = 1_000;

type Check = () => Promise<boolean>;

/** Whether a request asks for a page (a document or a page's server-rendered payload), not an asset or the API. */
export function isPageRequest(req: Pick<http.IncomingMessage, "method" | "url">): boolean {
  const method = (req.method ?? "").toUpperCase();
  if (method !== "GET" && method !== "HEAD") return false;
  const path = (req.url ?? "/").split("?")[0]!;
  return !path.startsWith("/_next/") && !path.startsWith("/api/") && !/\.[a-z0-9]+$/i.test(path);
}

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Charter: database unavailable</title></head>
<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:6rem auto;padding:0 1.5rem;text-align:center">
<h1>The database is unavailable</h1>
<p>Charter cannot reach its database right now. Agents' events wait in their spools and arrive once it is back. This page can be reloaded in a few seconds.</p>
</body></html>
`;

/**
 * A gate in front of the dashboard's pages: while the database cannot be asked, a page
 * is answered 503 with Retry-After (as the API answers), not rendered into a 500.
 * `check` says whether the database answers; its answer is kept for a second.
 */
export function unavailableGate(check: Check, now: () => number = Date.now) {
  let last: { at: number; ok: Promise<boolean> } | null = null;
  const databaseAnswers = () => {
    if (!last || now() - last.at >= CHECK_TTL_MS)
      last = { at: now(), ok: check().catch(() => false) };
    return last.ok;
  };
  /** Answers 503 itself and returns true, or returns false and leaves the request to the server. */
  return async (req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> => {
    if (!isPageRequest(req) || (await databaseAnswers())) return false;
    res.writeHead(503, {
      ...BASE_SECURITY_HEADERS,
      "content-security-policy": NO_CONTENT_CSP,
      "retry-after": String(DATABASE_RETRY_AFTER_SECONDS),
      "cache-control": "no-store",
      "content-type": "text/html; charset=utf-8",
      "content-length": Buffer.byteLength(PAGE),
    });
    res.end(req.method?.toUpperCase() === "HEAD" ? undefined : PAGE);
    return true;
  };
}

const installed = globalThis as unknown as { __charterUnavailableGate?: boolean };

/**
 * Puts the gate in front of every HTTP server in this process (`next start` owns the
 * server, so it sits where Node hands the server a request, like the client-IP stamp).
 */
export function installUnavailableGate(): void {
  if (installed.__charterUnavailableGate) return;
  installed.__charterUnavailableGate = true;
  const gate = unavailableGate(async () => (await health.check()).ok);
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function emitPastGate(
    this: http.Server,
    event: string | symbol,
    ...args: unknown[]
  ): boolean {
    if (event !== "request") return Reflect.apply(emit, this, [event, ...args]) as boolean;
    const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
    if (!isPageRequest(req)) return Reflect.apply(emit, this, [event, ...args]) as boolean;
    // The request's body is not read before the answer: a page request carries none.
    void gate(req, res).then(
      (answered) => answered || Reflect.apply(emit, this, [event, ...args]),
      () => Reflect.apply(emit, this, [event, ...args]),
    );
    return true;
  } as typeof emit;
}
