import { NextResponse, type NextRequest } from "next/server";
import { env } from "./lib/env";
import {
  NO_CONTENT_CSP,
  NONCE_HEADER,
  newNonce,
  pageCsp,
  servedOverHttps,
  setSecurityHeaders,
} from "./lib/http/security-headers";

/**
 * Gives every answer its security headers, and a page a fresh nonce: Next reads it
 * from the request's Content-Security-Policy and puts it on its own scripts, so every
 * page is rendered per request (the root layout awaits `connection()`). Under /api
 * nothing is rendered and the policy allows nothing.
 *
 * Also refuses an address whose percent-encoding is not UTF-8 (e.g. `/turns/%ED%A0%80`,
 * half a surrogate pair) with 400: Next.js cannot decode such a path into route
 * parameters and would answer 500. The events API is left out: it is the hot path,
 * its address is fixed, and its route wrapper and next.config.ts set its headers. So is
 * the OTLP traces endpoint, for the same reasons and one more: Next buffers the body of
 * a request the proxy sees and passes on only its first 10 MB (proxyClientMaxBodySize),
 * and an export may be larger (the route refuses past 16 MiB itself, with 413).
 */
export function proxy(request: NextRequest): NextResponse {
  const https = servedOverHttps(request);
  const refuse = (status: number, text: string) => {
    const refused = new NextResponse(`${text}\n`, {
      status,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
    setSecurityHeaders(refused.headers, { csp: NO_CONTENT_CSP, https });
    return refused;
  };
  try {
    decodeURIComponent(request.nextUrl.pathname);
  } catch {
    return refuse(
      400,
      "Bad request: the address holds a percent-encoded sequence that is not UTF-8.",
    );
  }
  const action = refusedAction(request);
  if (action) return refuse(action.status, action.text);
  if (request.nextUrl.pathname.startsWith("/api/")) {
    const response = NextResponse.next();
    setSecurityHeaders(response.headers, { csp: NO_CONTENT_CSP, https });
    return response;
  }
  const nonce = newNonce();
  const csp = pageCsp(nonce, { dev: env().NODE_ENV === "development", https });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set(NONCE_HEADER, nonce);
  requestHeaders.set("content-security-policy", csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  setSecurityHeaders(response.headers, { csp, https });
  return response;
}

/** Next.js's limit for a server action's body (`serverActions.bodySizeLimit`, 1 MB by default). */
export const ACTION_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Server action calls Next.js would refuse with a 500 and a logged stack trace: one sent
 * from another site (its Origin names another host than the one asked), and one whose
 * declared body is over the action limit. They get the status that says why. A chunked
 * body declares no length; Next.js still refuses it past the limit.
 */
function refusedAction(request: NextRequest): { status: number; text: string } | null {
  if (request.method !== "POST" || !request.headers.has("next-action")) return null;
  const origin = request.headers.get("origin");
  if (origin) {
    const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
    let from: string | null = null;
    try {
      from = new URL(origin).host;
    } catch {
      // not a URL: refused below like another site
    }
    if (from !== host)
      return { status: 403, text: "Forbidden: a server action must be called from this site." };
  }
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > ACTION_BODY_LIMIT_BYTES)
    return {
      status: 413,
      text: `Payload too large: a server action takes at most ${ACTION_BODY_LIMIT_BYTES} bytes.`,
    };
  return null;
}

export const config = { matcher: ["/((?!_next/|api/v1/events|api/public/otel/v1/traces).*)"] };
