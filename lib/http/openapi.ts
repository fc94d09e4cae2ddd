import { z } from "zod";
import {
  BadRequestError,
  ForbiddenError,
  PayloadTooLargeError,
  ServiceUnavailableError,
  UnauthorizedError,
  ValidationError,
  type AppError,
} from "@/lib/errors";
import { eventsRequestSchema, eventsResponseSchema, MAX_BATCH } from "@/lib/schemas/events";
import { turnFiltersSchema } from "@/lib/schemas/turns";
import { VERSION } from "@/lib/version";

/** FieldIssue of lib/errors.ts: the problems an invalid request names, one per field. */
const fieldIssueSchema = z.object({
  path: z.string().describe('The field, as "events.0.prompt"; "(root)" for the body as a whole.'),
  message: z.string(),
});

const errorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z
      .array(fieldIssueSchema)
      .optional()
      .describe("With `invalid_input`: each problem, naming its field."),
  }),
});

function jsonSchema(schema: z.ZodType) {
  return z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
}

function json(schema: z.ZodType | undefined, example?: unknown) {
  return {
    "application/json": {
      ...(schema ? { schema: jsonSchema(schema) } : {}),
      ...(example === undefined ? {} : { example }),
    },
  };
}

/** An error answer as the route wrapper sends it (lib/http/route.ts, errorResponse): the example is the error class's own JSON. */
function error(description: string, example: AppError) {
  return { description, content: json(errorSchema, example.toJSON()) };
}

/** Answers every route behind `route()` with an access rule can give: no caller, a caller without the right, no database. */
const AUTH_ERRORS = {
  "401": error("No valid API key or session.", new UnauthorizedError()),
  "403": error(
    "The key lacks the `read` scope, or the key's owner is no longer allowed to read.",
    new ForbiddenError("This API key lacks the scope this route needs (read)."),
  ),
};
const UNAVAILABLE = {
  "503": {
    ...error(
      "The database cannot be reached or has no free connection. Ask again after `Retry-After` seconds.",
      new ServiceUnavailableError(),
    ),
    headers: {
      "Retry-After": {
        description: "Seconds to wait before sending again.",
        schema: { type: "integer" },
      },
    },
  },
};

/** Descriptions for the turn filters whose schema carries none (lib/schemas/turns.ts). */
const TURN_PARAMETER_TEXT: Record<string, string> = {
  min: "Only turns whose normalized total is at least this (0 to 1).",
  max: "Only turns whose normalized total is at most this (0 to 1).",
  principle: "With `below`: the principle whose score is compared.",
  below: "With `principle`: only turns where that principle's score is below this (0 to 1).",
};

function turnParameters() {
  const { properties } = jsonSchema(turnFiltersSchema) as {
    properties: Record<string, { description?: string }>;
  };
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    in: "query",
    required: false,
    description: schema.description ?? TURN_PARAMETER_TEXT[name],
    schema,
  }));
}

const EXAMPLE_EVENT = {
  id: "evt-0001-example-prompt",
  type: "UserPromptSubmit",
  session_id: "example-session-1",
  prompt: "Add a retry to the upload script",
};

const EXAMPLE_EVENTS_ANSWER = {
  accepted: 1,
  duplicates: 0,
  results: [
    {
      id: "evt-0001-example-prompt",
      status: "accepted",
      turn: 1,
      principles: [
        { id: "composable", title: "Composable", level: "soft", priority: 50, confidence: 0.742 },
      ],
      additional_context: "Charter principles for this prompt: ...",
    },
  ],
};

const EXAMPLE_TURNS_PAGE = {
  rows: [
    {
      id: "01a21b94-16c5-754a-8266-1a6ec2c797b7",
      sessionId: "example-session-1",
      number: 1,
      prompt: "Add a retry to the upload script",
      scoredAt: "2026-01-05T10:12:00.000Z",
      weightedTotal: 6.85,
      maxTotal: 10,
      normalizedTotal: 0.685,
      scores: {
        tasteful: 0.7,
        curated: 0.6,
        ethical: 1,
        joy_inducing: 0.5,
        composable: 0.8,
        heterarchical: 0.6,
        generative: 0.55,
      },
      overridden: false,
    },
  ],
  next: "eyJzY29yZWRBdCI6IjIwMjYtMDEtMDVUMTA6MTI6MDAuMDAwWiIsInR1cm5JZCI6IjAxYTIxYjk0LTE2YzUtNzU0YS04MjY2LTFhNmVjMmM3OTdiNyJ9",
};

const healthSchema = z.object({
  status: z.enum(["ok", "degraded", "starting"]),
  db: z.enum(["embedded", "postgres"]),
  version: z.string(),
  caller: z
    .object({ kind: z.enum(["user", "api_key"]), name: z.string() })
    .optional()
    .describe("With `auth=1`: who the credential belongs to."),
});

/**
 * The OpenAPI 3.1 document of Charter's REST API, generated from the same zod schemas
 * the routes use. Each operation lists only the statuses its handler and the route
 * wrapper can answer (a 500 for an unexpected fault is possible everywhere and not listed).
 * Descriptions are CommonMark: `code` spans, nothing else.
 */
export function openApiDocument(baseUrl: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "Charter API",
      version: VERSION,
      description: "Agents report turns; Charter scores them against the constitution.",
    },
    servers: [{ url: baseUrl }],
    components: {
      securitySchemes: {
        apiKey: {
          type: "apiKey",
          in: "header",
          name: "x-api-key",
          description: "Or `Authorization: Bearer <key>`.",
        },
      },
    },
    security: [{ apiKey: [] }],
    paths: {
      "/api/v1/events": {
        post: {
          summary: "Report agent events",
          description: `One event, or \`{"events": [...]}\` with up to ${MAX_BATCH}. Idempotent by event \`id\`: a repeated id is reported as a \`duplicate\` and not applied again. A batch with any invalid event is refused whole. Needs an API key with the \`ingest\` scope (or an editor's session).`,
          requestBody: { required: true, content: json(eventsRequestSchema, EXAMPLE_EVENT) },
          responses: {
            "200": {
              description: "Applied (or recognised as duplicates).",
              content: json(eventsResponseSchema, EXAMPLE_EVENTS_ANSWER),
            },
            "400": error(
              "The body is not JSON.",
              new BadRequestError("The request body is not valid JSON."),
            ),
            ...AUTH_ERRORS,
            "403": error(
              "The key lacks the `ingest` scope, the session's role is below editor, or a signed-in browser sent the request from another site or not as JSON.",
              new ForbiddenError("This API key lacks the scope this route needs (ingest)."),
            ),
            "413": error(
              "The body is too large (bytes, or JSON values and keys); nothing was applied.",
              new PayloadTooLargeError("The request is over the limit of 16777216 bytes."),
            ),
            "422": error(
              "The events are invalid; none was applied. `details` names each problem.",
              new ValidationError("The events are invalid; none was applied.", [
                { path: "events.0.type", message: "Invalid input" },
              ]),
            ),
            "503": {
              ...UNAVAILABLE["503"],
              description:
                "The database cannot be reached or has no free connection; nothing was applied. Send again after `Retry-After` seconds.",
            },
          },
        },
      },
      "/api/v1/turns": {
        get: {
          summary: "List scored turns",
          description:
            "Newest first, 50 a page; pass the previous page's `next` as `cursor` (keyset pagination). Needs the `read` scope.",
          parameters: turnParameters(),
          responses: {
            "200": {
              description: "A page of turns, and the `next` cursor (`null` on the last page).",
              content: json(undefined, EXAMPLE_TURNS_PAGE),
            },
            ...AUTH_ERRORS,
            "422": error(
              "A query parameter is invalid; `details` names it.",
              new ValidationError("The query parameters are invalid.", [
                { path: "min", message: "Too big: expected number to be <=1" },
              ]),
            ),
            ...UNAVAILABLE,
          },
        },
      },
      "/api/v1/recompute": {
        get: {
          summary: "Progress of the newest recompute of stored totals",
          description:
            "After the weights change, stored totals are recomputed in the background. Needs the `read` scope.",
          responses: {
            "200": {
              description: "The newest job, or `null` when there has been none.",
              content: json(undefined, {
                id: 7,
                weightSetId: 3,
                status: "running",
                total: 1200,
                done: 450,
                error: null,
                finishedAt: null,
              }),
            },
            ...AUTH_ERRORS,
            ...UNAVAILABLE,
          },
        },
      },
      "/api/v1/openapi.json": {
        get: {
          summary: "This document",
          description: "Needs the `read` scope or a session.",
          responses: {
            "200": { description: "The OpenAPI 3.1 document." },
            ...AUTH_ERRORS,
            ...UNAVAILABLE,
          },
        },
      },
      "/api/health": {
        get: {
          summary: "Health",
          description:
            "Public. With `auth=1` it also checks the credential sent and says whose it is.",
          security: [],
          parameters: [
            {
              name: "auth",
              in: "query",
              required: false,
              description: "`1`: demand a session or an API key, and name its owner in `caller`.",
              schema: { type: "string", enum: ["1"] },
            },
          ],
          responses: {
            "200": {
              description: "Up.",
              content: json(healthSchema, { status: "ok", db: "postgres", version: VERSION }),
            },
            "401": error("With `auth=1`: no valid API key or session.", new UnauthorizedError()),
            "503": {
              description:
                "Starting (the retrieval index is not built yet) or the database is unreachable. `Retry-After` says when to ask again.",
              headers: {
                "Retry-After": {
                  description: "Seconds to wait before asking again.",
                  schema: { type: "integer" },
                },
              },
              content: json(healthSchema, { status: "degraded", db: "postgres", version: VERSION }),
            },
          },
        },
      },
    },
  };
}
