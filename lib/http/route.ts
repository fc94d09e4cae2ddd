import "server-only";
import { z } from "zod";
import { allows, resolveCaller, type Access, type Caller } from "@/lib/auth/caller";
import { AppError, ForbiddenError, UnauthorizedError, validationErrorFrom } from "@/lib/errors";
import { log } from "@/lib/log";

type RouteContext<P> = { params: Promise<P> };
type Handler<P> = (input: { req: Request; caller: Caller | null; params: P }) => Promise<Response | unknown>;

/**
 * The one wrapper for route handlers: resolves the caller, checks access, and maps
 * every thrown error to `{error: {code, message, details}}` with its status. A
 * handler's plain return value is sent as JSON.
 */
export function route<P = Record<string, never>>(access: Access | "public", handler: Handler<P>) {
  return async (req: Request, context: RouteContext<P>): Promise<Response> => {
    try {
      let caller: Caller | null = null;
      if (access !== "public") {
        caller = await resolveCaller(req.headers);
        if (!caller) throw new UnauthorizedError();
        if (!allows(caller, access)) {
          throw new ForbiddenError(
            caller.kind === "api_key"
              ? `This API key lacks the scope this route needs${access.scope ? ` (${access.scope})` : ""}.`
              : `This needs the ${access.role} role or higher.`,
          );
        }
      }
      const params = (await context?.params) ?? ({} as P);
      const result = await handler({ req, caller, params });
      return result instanceof Response ? result : Response.json(result);
    } catch (error) {
      return errorResponse(error);
    }
  };
}

/** Maps any thrown value to a JSON error response; unknown errors are logged and hidden. */
export function errorResponse(error: unknown): Response {
  if (error instanceof z.ZodError) error = validationErrorFrom(error.issues);
  if (error instanceof AppError) return Response.json(error.toJSON(), { status: error.status });
  log.error("unhandled error in route", error);
  return Response.json({ error: { code: "internal", message: "Something went wrong on the server." } }, { status: 500 });
}

/** Parses a JSON body against a schema, turning malformed JSON and schema failures into 400/422. */
export async function jsonBody<S extends z.ZodType>(req: Request, schema: S): Promise<z.infer<S>> {
  let raw: unknown;
  try {
    raw = await req.json();
  } catch {
    throw new AppError("bad_request", 400, "The request body is not valid JSON.");
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw validationErrorFrom(parsed.error.issues);
  return parsed.data;
}
