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
 * its address is fixed, and its route wrapper and next.config.ts set its headers.
 */
export function proxy(request: NextRequest): NextResponse {
  const https = servedOverHttps(request);
  try {
    decodeURIComponent(request.nextUrl.pathname);
  } catch {
    const refused = new NextResponse(
      "Bad request: the address holds a percent-encoded sequence that is not UTF-8.\n",
      { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } },
    );
    setSecurityHeaders(refused.headers, { csp: NO_CONTENT_CSP, https });
    return refused;
  }
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

export const config = { matcher: ["/((?!_next/|api/v1/events).*)"] };
