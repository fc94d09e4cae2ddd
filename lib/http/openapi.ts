import { z } from "zod";
import { eventsRequestSchema, eventsResponseSchema, MAX_BATCH } from "@/lib/schemas/events";
import { turnFiltersSchema } from "@/lib/schemas/turns";
import { VERSION } from "@/lib/version";

const errorSchema = z.object({ error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }) });

function json(schema: z.ZodType) {
  return { "application/json": { schema: z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) } };
}

const errors = (...codes: number[]) =>
  Object.fromEntries(codes.map((code) => [String(code), { description: ERROR_TEXT[code] ?? "Error", content: json(errorSchema) }]));

const ERROR_TEXT: Record<number, string> = {
  400: "The body is not JSON.",
  401: "No valid API key or session.",
  403: "The key lacks the scope.",
  413: "The body is too large.",
  422: "The events are invalid; none was applied.",
  503: "The database cannot be reached or has no free connection; nothing was applied. Send again after Retry-After seconds.",
};

/** The OpenAPI 3.1 document of Charter's REST API, generated from the same zod schemas the routes use. */
export function openApiDocument(baseUrl: string) {
  return {
    openapi: "3.1.0",
    info: { title: "Charter API", version: VERSION, description: "Agents report turns; Charter scores them against the constitution." },
    servers: [{ url: baseUrl }],
    components: { securitySchemes: { apiKey: { type: "apiKey", in: "header", name: "x-api-key" } } },
    security: [{ apiKey: [] }],
    paths: {
      "/api/v1/events": {
        post: {
          summary: "Report agent events",
          description: `One event, or {events: [...]} with up to ${MAX_BATCH}. Idempotent by event id: a repeated id is reported as a duplicate and not applied again. Needs an API key with the ingest scope.`,
          requestBody: { required: true, content: json(eventsRequestSchema) },
          responses: { "200": { description: "Applied (or recognised as duplicates).", content: json(eventsResponseSchema) }, ...errors(400, 401, 403, 413, 422, 503) },
        },
      },
      "/api/v1/turns": {
        get: {
          summary: "List scored turns",
          description: "Newest first, 50 a page; pass the previous page's `next` as `cursor` (keyset pagination). Needs the read scope.",
          parameters: Object.entries((z.toJSONSchema(turnFiltersSchema, { io: "input" }) as { properties: Record<string, unknown> }).properties).map(([name, schema]) => ({ name, in: "query", required: false, schema })),
          responses: { "200": { description: "A page of turns: {rows, next}." }, ...errors(401, 403, 422) },
        },
      },
      "/api/v1/recompute": {
        get: { summary: "Progress of the newest recompute of stored totals", description: "Needs the read scope.", responses: { "200": { description: "The job, or null." }, ...errors(401, 403) } },
      },
      "/api/v1/openapi.json": {
        get: { summary: "This document", description: "Needs the read scope or a session.", responses: { "200": { description: "OpenAPI 3.1" }, ...errors(401, 403) } },
      },
      "/api/health": {
        get: {
          summary: "Health",
          security: [],
          responses: { "200": { description: "Up", content: json(z.object({ status: z.string(), db: z.enum(["embedded", "postgres"]), version: z.string() })) } },
        },
      },
    },
  };
}
