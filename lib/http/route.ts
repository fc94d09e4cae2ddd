import "server-only";
import { z } from "zod";
import type { Access, Caller } from "@/lib/auth/caller";
import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import {
  AppError,
  ServiceUnavailableError,
  UnavailableError,
  validationErrorFrom,
} from "@/lib/errors";
import { log } from "@/lib/log";
import { authorize } from "./authorize";
import type { RequestHead } from "./same-origin";
import { NO_CONTENT_CSP, servedOverHttps, setSecurityHeaders } from "./security-headers";

type RouteContext<P> = { params: Promise<P> };
type Handler<P> = (input: {
  req: Request;
  caller: Caller | null;
  params: P;
}) => Promise<Response | unknown>;

/**
 * The one wrapper for route handlers: refuses a cookie's cross-origin or non-JSON
 * write, resolves the caller, checks access, and maps every thrown error to
 * `{error: {code, message, details}}` with its status. A handler's plain return
 * value is sent as JSON. Every answer carries the security headers (proxy.ts does
 * not run for these routes).
 */
export function route<P = Record<string, never>>(access: Access | "public", handler: Handler<P>) {
  return async (req: Request, context: RouteContext<P>): Promise<Response> =>
    withSecurityHeaders(await answer(access, handler, req, context), req);
}

async function answer<P>(
  access: Access | "public",
  handler: Handler<P>,
  req: Request,
  context: RouteContext<P>,
): Promise<Response> {
  try {
    let caller: Caller | null = null;
    if (access !== "public") caller = await authorize(req, access);
    const params = (await context?.params) ?? ({} as P);
    const result = await handler({ req, caller, params });
    return result instanceof Response ? result : Response.json(result);
  } catch (error) {
    return errorResponse(error);
  }
}

/** Sets the security headers on an answer; one whose headers are immutable (a redirect, a fetched response) is copied first. */
export function withSecurityHeaders(res: Response, req: RequestHead): Response {
  const options = { csp: NO_CONTENT_CSP, https: servedOverHttps(req) };
  try {
    setSecurityHeaders(res.headers, options);
    return res;
  } catch {
    const copy = new Response(res.body, res);
    setSecurityHeaders(copy.headers, options);
    return copy;
  }
}

/** Under overload every request fails the same way: one warning per this many milliseconds is enough. */
const UNAVAILABLE_LOG_INTERVAL_MS = 10_000;
let lastUnavailableLog = 0;

function warnUnavailable(error: unknown): void {
  const now = Date.now();
  if (now - lastUnavailableLog < UNAVAILABLE_LOG_INTERVAL_MS) return;
  lastUnavailableLog = now;
  const reason = error instanceof Error ? error.message.trim().split("\n").at(-1) : String(error);
  log.warn(`database unavailable, answering 503: ${reason}`);
}

/**
 * Maps any thrown value to a JSON error response; unknown errors are logged and hidden.
 * A database that could not be asked, wherever in the handler, is a 503 with
 * Retry-After: never a 500, and never a refusal of the caller.
 */
export function errorResponse(error: unknown): Response {
  if (error instanceof z.ZodError) error = validationErrorFrom(error.issues);
  if (!(error instanceof AppError) && isDatabaseUnavailable(error)) {
    warnUnavailable(error);
    error = new ServiceUnavailableError();
  }
  if (error instanceof AppError) {
    const retryAfter = error instanceof UnavailableError ? error.retryAfterSeconds : undefined;
    return Response.json(error.toJSON(), {
      status: error.status,
      headers: retryAfter === undefined ? undefined : { "retry-after": String(retryAfter) },
    });
  }
  log.error("unhandled error in route", error);
  return Response.json(
    { error: { code: "internal", message: "Something went wrong on the server." } },
    { status: 500 },
  );
}
