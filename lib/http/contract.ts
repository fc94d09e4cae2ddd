import { z } from "zod";
import type { Access } from "@/lib/auth/caller";
import {
  ForbiddenError,
  ServiceUnavailableError,
  UnauthorizedError,
  type AppError,
} from "@/lib/errors";

/*
 * What a route promises, declared once as data (no handler, no server code): its
 * method and path, who may call it, the schemas of its query, path parameters, body
 * and answers, and the errors it can give. route() (./route.ts) enforces a contract;
 * the OpenAPI document (./openapi.ts) is generated from the registry of them
 * (./api-routes.ts). Schemas describe the JSON on the wire as their input: a response
 * schema's output is what the handler returns (a Date is a codec from an ISO string).
 */

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A documented response header, as OpenAPI writes it. */
export type HeaderSpec = { description: string; schema: { type: "integer" | "string" } };

/** An answer with a body of the route's own: its schema, and an example the schema accepts. */
export type ResponseSpec = {
  description: string;
  schema: z.ZodType;
  example?: unknown;
  headers?: Record<string, HeaderSpec>;
  /** A binary media type the answer is also sent in (when the request was): documented, not checked as JSON. */
  binary?: string;
};

/** An answer in the one error shape; its example is the error class's own JSON. */
export type ErrorSpec = {
  description: string;
  example: AppError;
  headers?: Record<string, HeaderSpec>;
};

/**
 * A request body: its schema, an example, who validates it (route() unless the handler
 * shares its parse with another way in), and a binary media type it may also come in
 * (read by the route's own reader; the schema describes its JSON form).
 */
export type BodySpec = {
  schema: z.ZodType;
  example?: unknown;
  parsedBy?: "route" | "handler";
  binary?: string;
};

export type RouteContract = {
  method: HttpMethod;
  path: string;
  summary: string;
  /** CommonMark: `code` spans, nothing else (the API page renders them). */
  description: string;
  access: Access | "public";
  query?: z.ZodObject;
  params?: z.ZodObject;
  body?: BodySpec;
  responses: { 200: ResponseSpec } & { [status: number]: ResponseSpec };
  errors: { [status: number]: ErrorSpec };
};

/** Keeps a contract's literal type, so that route() types its handler from it. */
export function defineRoute<const C extends RouteContract>(contract: C): C {
  return contract;
}

/** Every status a contract declares, answers and errors together, ascending. */
export function statusesOf(contract: RouteContract): number[] {
  const all = new Set([...Object.keys(contract.responses), ...Object.keys(contract.errors)]);
  return [...all].map(Number).sort((a, b) => a - b);
}

/** FieldIssue of lib/errors.ts: the problems an invalid request names, one per field. */
export const fieldIssueSchema = z.object({
  path: z.string().describe('The field, as "events.0.prompt"; "(root)" for the body as a whole.'),
  message: z.string(),
});

/** Every error answer: AppError.toJSON() (lib/errors.ts), as errorResponse sends it. */
export const errorBodySchema = z.strictObject({
  error: z.strictObject({
    code: z.string(),
    message: z.string(),
    details: z
      .array(fieldIssueSchema)
      .optional()
      .describe("With `invalid_input`: each problem, naming its field."),
  }),
});

export const RETRY_AFTER: Record<string, HeaderSpec> = {
  "Retry-After": {
    description: "Seconds to wait before sending again.",
    schema: { type: "integer" },
  },
};

/** What every route with an access rule can answer: no caller, a caller without the right (its scope named). */
export function authErrors(access: Access, forbidden?: string): Record<401 | 403, ErrorSpec> {
  const scope = access.scope ?? "read";
  return {
    401: { description: "No valid API key or session.", example: new UnauthorizedError() },
    403: {
      description:
        forbidden ??
        `The key lacks the \`${scope}\` scope, or the key's owner is no longer allowed to ${scope}.`,
      example: new ForbiddenError(`This API key lacks the scope this route needs (${scope}).`),
    },
  };
}

/** The database could not be asked (resolving a caller asks it): 503 with Retry-After. */
export function unavailableError(
  description = "The database cannot be reached or has no free connection. Ask again after `Retry-After` seconds.",
): Record<503, ErrorSpec> {
  return { 503: { description, example: new ServiceUnavailableError(), headers: RETRY_AFTER } };
}
