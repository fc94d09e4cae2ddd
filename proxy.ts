import { NextResponse, type NextRequest } from "next/server";

/**
 * Refuses an address whose percent-encoding is not UTF-8 (e.g. `/turns/%ED%A0%80`, half
 * a surrogate pair) with 400: Next.js cannot decode such a path into route parameters
 * and would answer 500. The events API is left out: it is the hot path, and its
 * address is fixed.
 */
export function proxy(request: NextRequest): NextResponse {
  try {
    decodeURIComponent(request.nextUrl.pathname);
  } catch {
    return new NextResponse("Bad request: the address holds a percent-encoded sequence that is not UTF-8.\n", { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  return NextResponse.next();
}

export const config = { matcher: ["/((?!_next/|api/v1/events).*)"] };
