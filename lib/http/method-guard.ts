import type http from "node:http";
import { beforeEachRequest } from "@/lib/node-requests";
import { BASE_SECURITY_HEADERS, NO_CONTENT_CSP } from "./security-headers";

/**
 * Methods the fetch standard forbids in a Request that reach a request handler: Next.js
 * cannot build the Request a route or page needs and answered TRACE with a 500. (CONNECT
 * goes to the server's "connect" event instead, and Node's parser refuses TRACK itself.)
 */
const FORBIDDEN_METHODS = new Set(["TRACE"]);

/**
 * Answers 405 to a request whose method no route can take, before Next.js sees it.
 * Returns true when it answered.
 */
export function refuseForbiddenMethod(
  req: http.IncomingMessage,
  res: http.ServerResponse,
): boolean {
  const method = (req.method ?? "").toUpperCase();
  if (!FORBIDDEN_METHODS.has(method)) return false;
  const body = JSON.stringify({
    error: { code: "method_not_allowed", message: `The ${method} method is not allowed here.` },
  });
  res.writeHead(405, {
    ...BASE_SECURITY_HEADERS,
    "content-security-policy": NO_CONTENT_CSP,
    allow: "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS",
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
  });
  res.end(body);
  // The request's body (if any) is not read; drain it so the connection can be reused.
  req.resume();
  return true;
}

/** Makes every HTTP server in this process answer forbidden methods itself (lib/node-requests.ts). */
export function installMethodGuard(): void {
  beforeEachRequest("method guard", (req, res, pass) => {
    if (!refuseForbiddenMethod(req, res)) pass();
  });
}
