import { describe, expect, it } from "vitest";
import { exportTraceRequestSchema } from "@/lib/otel/otlp";
import { MAX_BATCH, parseEventsRequest } from "@/lib/schemas/events";
import { turnFiltersSchema } from "@/lib/schemas/turns";
import { API_ROUTES } from "./api-routes";
import { openApiDocument } from "./openapi";
import type { Operation } from "./openapi-operation";

const doc = openApiDocument("http://127.0.0.1:3000");

function operation(path: string, method: string): Operation {
  const op = doc.paths[path]?.[method];
  if (!op) throw new Error(`no ${method} ${path} in the document`);
  return op;
}

type Schema = {
  type?: string;
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  maxItems?: number;
  minItems?: number;
};

function json(op: Operation, status?: string): { schema?: Schema; example?: unknown } {
  const content = status ? op.responses[status]?.content : op.requestBody?.content;
  const media = content?.["application/json"];
  if (!media) throw new Error(`no JSON content for ${status ?? "the request"}`);
  return media as { schema?: Schema; example?: unknown };
}

describe("the OpenAPI document", () => {
  it("has one operation per route contract, and nothing else", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths).sort()).toEqual([
      "/api/health",
      "/api/public/otel/v1/traces",
      "/api/v1/events",
      "/api/v1/openapi.json",
      "/api/v1/recompute",
      "/api/v1/turns",
    ]);
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(API_ROUTES.map((r) => `${r.method} ${r.path}`).sort());
  });

  it("keeps the API key scheme, required everywhere but on the public health check", () => {
    expect(doc.components.securitySchemes.apiKey).toEqual({
      type: "apiKey",
      in: "header",
      name: "x-api-key",
      description: "Or `Authorization: Bearer <key>`.",
    });
    expect(doc.security).toEqual([{ apiKey: [] }]);
    expect(operation("/api/health", "get").security).toEqual([]);
    expect(operation("/api/v1/turns", "get").security).toBeUndefined();
  });

  // What each handler and route() (lib/http/route.ts) can answer: 400 only where a body is
  // read, 413 only where its size is limited, 422 where input is validated, 503 wherever
  // the database is asked (resolving a caller asks it).
  it.each([
    ["/api/v1/events", "post", ["200", "400", "401", "403", "413", "422", "503"]],
    ["/api/public/otel/v1/traces", "post", ["200", "400", "401", "403", "413", "415", "503"]],
    ["/api/v1/turns", "get", ["200", "401", "403", "422", "503"]],
    ["/api/v1/recompute", "get", ["200", "401", "403", "503"]],
    ["/api/v1/openapi.json", "get", ["200", "401", "403", "503"]],
    ["/api/health", "get", ["200", "401", "503"]],
  ] as const)("%s %s answers %j", (path, method, statuses) => {
    expect(Object.keys(operation(path, method).responses)).toEqual([...statuses]);
  });

  it("writes the events request from the route's schema: one event or a batch of 1 to 1000", () => {
    const { schema } = json(operation("/api/v1/events", "post"));
    expect(schema?.anyOf).toHaveLength(2);
    expect(JSON.stringify(schema)).toContain("UserPromptSubmit");
    const batch = schema?.anyOf?.find((s) => s.properties?.events);
    expect(batch?.properties?.events).toMatchObject({ type: "array", minItems: 1, maxItems: 1000 });
    expect(MAX_BATCH).toBe(1000);
  });

  it("writes each answer's schema, and the error shape for each error", () => {
    const events = operation("/api/v1/events", "post");
    expect(Object.keys(json(events, "200").schema?.properties ?? {})).toEqual([
      "accepted",
      "duplicates",
      "results",
    ]);
    expect(json(events, "413").schema).toMatchObject({
      type: "object",
      properties: { error: { properties: { code: {}, message: {}, details: {} } } },
    });
    expect(events.responses["503"]?.headers).toHaveProperty("Retry-After");
    const turns = json(operation("/api/v1/turns", "get"), "200").schema;
    expect(turns?.properties?.rows).toMatchObject({ type: "array" });
    expect(turns?.properties?.rows).toHaveProperty("items.properties.scoredAt", {
      type: "string",
      format: "date-time",
      pattern: expect.any(String),
    });
    const health = json(operation("/api/health", "get"), "503").schema;
    expect(health?.properties?.status).toMatchObject({
      enum: ["ok", "degraded", "starting", "draining"],
    });
  });

  it("describes the 422 of each route in its own terms, with an example in the error shape", () => {
    const turns = operation("/api/v1/turns", "get").responses["422"];
    expect(turns?.description).toMatch(/query parameter/);
    expect(turns?.content?.["application/json"]?.example).toMatchObject({
      error: { code: "invalid_input", message: "The query parameters are invalid." },
    });
    expect(operation("/api/v1/events", "post").responses["422"]?.description).toMatch(
      /events are invalid/,
    );
  });

  it("documents the OTLP route's protobuf body and answer beside their JSON, and its example export", () => {
    const op = operation("/api/public/otel/v1/traces", "post");
    expect(Object.keys(op.requestBody?.content ?? {})).toEqual([
      "application/json",
      "application/x-protobuf",
    ]);
    expect(Object.keys(op.responses["200"]?.content ?? {})).toEqual([
      "application/json",
      "application/x-protobuf",
    ]);
    expect(exportTraceRequestSchema.safeParse(json(op).example).success).toBe(true);
  });

  it("gives the events route a request example that the route's own schema accepts", () => {
    expect(parseEventsRequest(json(operation("/api/v1/events", "post")).example).success).toBe(
      true,
    );
  });

  it("lists every turn filter as a described, optional query parameter", () => {
    const parameters = operation("/api/v1/turns", "get").parameters ?? [];
    expect(parameters.map((p) => p.name)).toEqual(Object.keys(turnFiltersSchema.shape));
    for (const parameter of parameters) {
      expect(parameter.description, parameter.name).toBeTruthy();
      expect(parameter, parameter.name).toMatchObject({ in: "query", required: false });
    }
  });

  it("gives the health check its `auth` parameter", () => {
    expect(operation("/api/health", "get").parameters).toEqual([
      {
        name: "auth",
        in: "query",
        required: false,
        description: "`1`: demand a session or an API key, and name its owner in `caller`.",
        schema: {
          type: "string",
          enum: ["1"],
          description: "`1`: demand a session or an API key, and name its owner in `caller`.",
        },
      },
    ]);
  });
});

describe("the examples", () => {
  it.each(API_ROUTES.map((r) => [`${r.method} ${r.path}`, r] as const))(
    "of %s are accepted by its schemas",
    (_name, contract) => {
      const answers: [
        string,
        { schema: { safeParse(v: unknown): { success: boolean } }; example?: unknown },
      ][] = Object.entries(contract.responses);
      for (const [status, spec] of answers)
        if (spec.example !== undefined)
          expect(spec.schema.safeParse(spec.example).success, status).toBe(true);
    },
  );

  it("give the turns page a `next` that the route accepts as `cursor`", () => {
    const example = json(operation("/api/v1/turns", "get"), "200").example as { next: string };
    expect(turnFiltersSchema.safeParse({ cursor: example.next }).success).toBe(true);
  });
});
