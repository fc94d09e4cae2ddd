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
import { answerChecksOn, checkAnswer } from "./answer-check";
import { authorize } from "./authorize";
import type { BodySpec, RouteContract } from "./contract";
import { readJsonBody, type BodyLimits, type JsonBody } from "./limits";
import type { RequestHead } from "./same-origin";
import { NO_CONTENT_CSP, servedOverHttps, setSecurityHeaders } from "./security-headers";

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
type Awaitable<T> = T | Promise<T>;
type Parsed<S> = S extends z.ZodType ? z.output<S> : Record<string, never>;
type Statuses<C extends RouteContract> = keyof C["responses"] & number;
/** What the handler gives for a status: the output of that status's schema (sent as its input, JSON). */
type Answer<C extends RouteContract, S extends Statuses<C>> = z.output<C["responses"][S]["schema"]>;
type BodyOf<C extends RouteContract> = C["body"] extends BodySpec
  ? C["body"]["parsedBy"] extends "handler"
    ? unknown
    : z.output<C["body"]["schema"]>
  : undefined;

/** An answer with a declared status other than 200, or with headers: made by the handler's `reply`. */
export class Reply<S extends number = number, B = unknown> {
  constructor(
    readonly status: S,
    readonly body: B,
    readonly headers?: Record<string, string>,
  ) {}
}

type Replies<C extends RouteContract> = { [S in Statuses<C>]: Reply<S, Answer<C, S>> }[Statuses<C>];

export type HandlerInput<C extends RouteContract> = {
  req: Request;
  caller: Caller | null;
  params: Parsed<C["params"]>;
  query: Parsed<C["query"]>;
  /** The body, read within its limits and parsed by the contract's schema (unknown JSON when the handler parses it). */
  body: BodyOf<C>;
  /** performance.now() just before the body's first byte was awaited (0 without a body). */
  bodyReadAt: number;
  /** An answer with one of the contract's statuses, its body typed by that status's schema. */
  reply: <S extends Statuses<C>>(
    status: S,
    body: Answer<C, S>,
    headers?: Record<string, string>,
  ) => Reply<S, Answer<C, S>>;
};

export type RouteOptions = {
  /** The route's own bounded reader of its JSON body (default: DEFAULT_BODY_LIMITS). */
  readBody?: (req: Request) => Promise<JsonBody>;
  /** The handler answers with a Response it builds (code shared with another way in); checked in tests only. */
  answersWithResponse?: true;
};

type Handler<C extends RouteContract, O extends RouteOptions> = (
  input: HandlerInput<C>,
) => Awaitable<
  Answer<C, 200> | Replies<C> | (O["answersWithResponse"] extends true ? Response : never)
>;

/** Bodies of routes that name no reader of their own: far more than any such route takes. */
export const DEFAULT_BODY_LIMITS: BodyLimits = { bytes: 1024 * 1024, tokens: 100_000 };

/** A route handler as Next calls it, with the contract it enforces. */
export type RouteHandler<C extends RouteContract> = ((
  req: Request,
  context: RouteContext,
) => Promise<Response>) & { contract: C };

/** A handler outside the REST API (a dashboard download): an access rule and no contract; what it answers is its own. */
type PlainHandler = (input: {
  req: Request;
  caller: Caller | null;
  params: Record<string, string | string[] | undefined>;
}) => Promise<unknown>;

/**
 * The one wrapper for route handlers, enforcing a contract of lib/http/api-routes.ts:
 * refuses a cookie's cross-origin or non-JSON write, resolves the caller and checks
 * its access, parses the path parameters, the query and the JSON body by the
 * contract's schemas (invalid: 422 naming each field), and maps every thrown error to
 * `{error: {code, message, details}}` with its status. The handler's return is typed
 * by the contract: the 200 schema's output, sent as JSON, or a `reply` with another
 * declared status. In tests every answer is checked against the contract
 * (./answer-check.ts). Every answer carries the security headers (proxy.ts does not
 * run for these routes). Given an access rule instead of a contract, it does all but
 * the parsing and the checks: for routes outside the API (lib/http/api-routes.test.ts).
 */
export function route<const C extends RouteContract, const O extends RouteOptions = RouteOptions>(
  contract: C,
  handler: NoInfer<Handler<C, O>>,
  options?: O,
): RouteHandler<C>;
export function route(
  access: Access | "public",
  handler: PlainHandler,
): (req: Request, context: RouteContext) => Promise<Response>;
export function route(
  rule: RouteContract | Access | "public",
  handler: Handler<RouteContract, RouteOptions> | PlainHandler,
  options?: RouteOptions,
) {
  const contract = typeof rule === "object" && "path" in rule ? rule : undefined;
  const access = contract ? contract.access : (rule as Access | "public");
  const answerOf = async (req: Request, context: RouteContext): Promise<Response> => {
    const res = await answer(
      access,
      contract,
      handler as Handler<RouteContract, RouteOptions>,
      options,
      req,
      context,
    );
    if (contract && answerChecksOn()) await checkAnswer(contract, res);
    return withSecurityHeaders(res, req);
  };
  return contract ? Object.assign(answerOf, { contract }) : answerOf;
}

function parsed(schema: z.ZodType | undefined, value: unknown, message: string): unknown {
  if (!schema) return {};
  const result = schema.safeParse(value);
  if (!result.success) throw validationErrorFrom(result.error.issues, message);
  return result.data;
}

const reply = (status: number, body: unknown, headers?: Record<string, string>) =>
  new Reply(status, body, headers);

async function answer(
  access: Access | "public",
  contract: RouteContract | undefined,
  handler: Handler<RouteContract, RouteOptions>,
  options: RouteOptions | undefined,
  req: Request,
  context: RouteContext,
): Promise<Response> {
  try {
    let caller: Caller | null = null;
    if (access !== "public") caller = await authorize(req, access);
    const rawParams = (await context?.params) ?? {};
    if (!contract) return send(await (handler as PlainHandler)({ req, caller, params: rawParams }));
    const params = parsed(contract.params, rawParams, "The path parameters are invalid.");
    const query = parsed(
      contract.query,
      Object.fromEntries(new URL(req.url).searchParams),
      "The query parameters are invalid.",
    );
    let body: unknown;
    let bodyReadAt = 0;
    if (contract.body) {
      bodyReadAt = performance.now();
      const read = await (options?.readBody ?? readDefault)(req);
      if ("refused" in read) return read.refused;
      body =
        contract.body.parsedBy === "handler"
          ? read.value
          : parsed(contract.body.schema, read.value, "The request body is invalid.");
    }
    const input = { req, caller, params, query, body, bodyReadAt, reply };
    return send(await handler(input as HandlerInput<RouteContract>));
  } catch (error) {
    return errorResponse(error);
  }
}

function send(result: unknown): Response {
  if (result instanceof Response) return result;
  if (result instanceof Reply)
    return Response.json(result.body, { status: result.status, headers: result.headers });
  return Response.json(result);
}

const readDefault = (req: Request) => readJsonBody(req, DEFAULT_BODY_LIMITS);

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
