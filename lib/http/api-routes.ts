import type { Access } from "@/lib/auth/caller";
import {
  BadRequestError,
  PayloadTooLargeError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
  ValidationError,
} from "@/lib/errors";
import { exportTraceRequestSchema, exportTraceResponseSchema } from "@/lib/otel/otlp";
import { eventsRequestSchema, eventsResponseSchema, MAX_BATCH } from "@/lib/schemas/events";
import { healthQuerySchema, healthSchema } from "@/lib/schemas/health";
import { openApiDocumentSchema } from "@/lib/schemas/openapi";
import { recomputeProgressSchema } from "@/lib/schemas/recompute";
import { turnFiltersSchema, turnsPageSchema } from "@/lib/schemas/turns";
import {
  EXAMPLE_EVENT,
  EXAMPLE_EVENTS_ANSWER,
  EXAMPLE_HEALTH,
  EXAMPLE_HEALTH_DEGRADED,
  EXAMPLE_OTLP_ANSWER,
  EXAMPLE_OTLP_EXPORT,
  EXAMPLE_RECOMPUTE,
  EXAMPLE_TURNS_PAGE,
} from "./api-examples";
import { authErrors, defineRoute, RETRY_AFTER, unavailableError } from "./contract";

/*
 * The registry of Charter's REST API: one contract per route handler under app/api
 * (Better Auth's app/api/auth/[...all] aside). Each route file passes its contract to
 * route(); lib/http/openapi.ts generates the document from API_ROUTES; a test fails when
 * a route file and this list disagree (lib/http/api-routes.test.ts). Each contract lists
 * only the statuses its handler and route() can answer: 400 only where a body is read,
 * 413 only where its size is limited, 422 where input is validated, 503 wherever the
 * database is asked (resolving a caller asks it); a 500 for an unexpected fault is
 * possible everywhere and not listed.
 */

const READ: Access = { role: "viewer", scope: "read" };

export const eventsRoute = defineRoute({
  method: "POST",
  path: "/api/v1/events",
  summary: "Report agent events",
  description: `One event, or \`{"events": [...]}\` with up to ${MAX_BATCH}. Idempotent by event \`id\`: a repeated id is reported as a \`duplicate\` and not applied again. A batch with any invalid event is refused whole. Needs an API key with the \`ingest\` scope (or an editor's session).`,
  access: { role: "editor", scope: "ingest" },
  // Parsed by lib/http/events.ts answerEvents, which the way in without the router shares.
  body: { schema: eventsRequestSchema, example: EXAMPLE_EVENT, parsedBy: "handler" },
  responses: {
    200: {
      description: "Applied (or recognised as duplicates).",
      schema: eventsResponseSchema,
      example: EXAMPLE_EVENTS_ANSWER,
    },
  },
  errors: {
    400: {
      description: "The body is not JSON.",
      example: new BadRequestError("The request body is not valid JSON."),
    },
    ...authErrors(
      { role: "editor", scope: "ingest" },
      "The key lacks the `ingest` scope, the session's role is below editor, or a signed-in browser sent the request from another site or not as JSON.",
    ),
    413: {
      description: "The body is too large (bytes, or JSON values and keys); nothing was applied.",
      example: new PayloadTooLargeError("The request is over the limit of 16777216 bytes."),
    },
    422: {
      description: "The events are invalid; none was applied. `details` names each problem.",
      example: new ValidationError("The events are invalid; none was applied.", [
        { path: "events.0.type", message: "Invalid input" },
      ]),
    },
    ...unavailableError(
      "The database cannot be reached or has no free connection; nothing was applied. Send again after `Retry-After` seconds.",
    ),
  },
});

export const otelTracesRoute = defineRoute({
  method: "POST",
  path: "/api/public/otel/v1/traces",
  summary: "Report OpenTelemetry GenAI traces (OTLP/HTTP)",
  description:
    "For agents built on frameworks that report OpenTelemetry GenAI spans (OpenAI Agents SDK, Vercel AI SDK, OpenLLMetry): point an OTLP/HTTP trace exporter here (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, the key in `OTEL_EXPORTER_OTLP_HEADERS` as `x-api-key` or `Authorization: Bearer`). JSON or binary protobuf, gzipped or not. A user prompt becomes a `UserPromptSubmit` (never delivered), a tool execution a `PostToolUse`, an agent's final reply a `Stop`, in the session of `gen_ai.conversation.id` (else `session.id`, else the trace). Idempotent: a re-sent export is recognised. Spans without GenAI meaning are ignored and counted in `partialSuccess`. Needs an API key with the `ingest` scope.",
  access: { role: "editor", scope: "ingest" },
  // Read by lib/http/otel/body.ts (JSON or protobuf), parsed by lib/http/otel/traces.ts.
  body: {
    schema: exportTraceRequestSchema,
    example: EXAMPLE_OTLP_EXPORT,
    parsedBy: "handler",
    binary: "application/x-protobuf",
  },
  responses: {
    200: {
      description:
        "Stored. OTLP's ExportTraceServiceResponse, in the request's encoding: `partialSuccess` names the spans rejected (`rejectedSpans`) and counts those ignored (`errorMessage`); absent when every span was mapped.",
      schema: exportTraceResponseSchema,
      example: EXAMPLE_OTLP_ANSWER,
      binary: "application/x-protobuf",
    },
  },
  errors: {
    400: {
      description:
        "The body is not what its Content-Type says (invalid JSON, bytes that are not an ExportTraceServiceRequest, invalid gzip), or lacks OTLP's frame.",
      example: new BadRequestError(
        "The request body is not an OTLP ExportTraceServiceRequest in binary protobuf (index out of range: 7 > 3).",
      ),
    },
    ...authErrors({ role: "editor", scope: "ingest" }),
    413: {
      description:
        "The body is too large, as sent or once gunzipped, or holds too many JSON values or protobuf fields; nothing was applied.",
      example: new PayloadTooLargeError("The request is over the limit of 16777216 bytes."),
    },
    415: {
      description:
        "A Content-Type other than `application/json` or `application/x-protobuf`, or a Content-Encoding other than `gzip`.",
      example: new UnsupportedMediaTypeError(
        "OTLP/HTTP takes Content-Type application/json or application/x-protobuf; this request sent text/plain.",
      ),
    },
    ...unavailableError(
      "The database cannot be reached or has no free connection. OTLP exporters retry after `Retry-After` seconds.",
    ),
  },
});

export const turnsRoute = defineRoute({
  method: "GET",
  path: "/api/v1/turns",
  summary: "List scored turns",
  description:
    "Newest first, 50 a page; pass the previous page's `next` as `cursor` (keyset pagination). Needs the `read` scope.",
  access: READ,
  query: turnFiltersSchema,
  responses: {
    200: {
      description: "A page of turns, and the `next` cursor (`null` on the last page).",
      schema: turnsPageSchema,
      example: EXAMPLE_TURNS_PAGE,
    },
  },
  errors: {
    ...authErrors(READ),
    422: {
      description: "A query parameter is invalid; `details` names it.",
      example: new ValidationError("The query parameters are invalid.", [
        { path: "min", message: "Too big: expected number to be <=1" },
      ]),
    },
    ...unavailableError(),
  },
});

export const recomputeRoute = defineRoute({
  method: "GET",
  path: "/api/v1/recompute",
  summary: "Progress of the newest recompute of stored totals",
  description:
    "After the weights change, stored totals are recomputed in the background. Needs the `read` scope.",
  access: READ,
  responses: {
    200: {
      description: "The newest job, or `null` when there has been none.",
      schema: recomputeProgressSchema,
      example: EXAMPLE_RECOMPUTE,
    },
  },
  errors: { ...authErrors(READ), ...unavailableError() },
});

export const openApiRoute = defineRoute({
  method: "GET",
  path: "/api/v1/openapi.json",
  summary: "This document",
  description: "Needs the `read` scope or a session.",
  access: READ,
  responses: { 200: { description: "The OpenAPI 3.1 document.", schema: openApiDocumentSchema } },
  errors: { ...authErrors(READ), ...unavailableError() },
});

export const healthRoute = defineRoute({
  method: "GET",
  path: "/api/health",
  summary: "Health",
  description: "Public. With `auth=1` it also checks the credential sent and says whose it is.",
  access: "public",
  query: healthQuerySchema,
  responses: {
    200: { description: "Up.", schema: healthSchema, example: EXAMPLE_HEALTH },
    503: {
      description:
        "Starting (the ingestion path is not warm yet), draining (shutting down) or the database is unreachable. `Retry-After` says when to ask again.",
      schema: healthSchema,
      example: EXAMPLE_HEALTH_DEGRADED,
      headers: RETRY_AFTER,
    },
  },
  errors: {
    401: {
      description: "With `auth=1`: no valid API key or session.",
      example: new UnauthorizedError(),
    },
  },
});

/** Every route of the API, in the order the document lists them. */
export const API_ROUTES = [
  eventsRoute,
  otelTracesRoute,
  turnsRoute,
  recomputeRoute,
  openApiRoute,
  healthRoute,
];
