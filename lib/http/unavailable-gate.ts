import type http from "node:http";
import { beforeEachRequest } from "@/lib/node-requests";
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

/** Puts the gate in front of every HTTP server in this process (lib/node-requests.ts). */
export function installUnavailableGate(): void {
  const gate = unavailableGate(async () => (await health.check()).ok);
  beforeEachRequest("database gate", (req, res, pass) => {
    if (!isPageRequest(req)) return pass();
    // A page request carries no body: nothing is read before the answer.
    void gate(req, res).then((answered) => answered || pass(), pass);
  });
}
