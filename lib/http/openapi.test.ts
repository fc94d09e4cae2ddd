import { describe, expect, it } from "vitest";
import { parseEventsRequest } from "@/lib/schemas/events";
import { openApiDocument } from "./openapi";

type Responses = Record<
  string,
  { description: string; content?: Record<string, { example?: unknown }> }
>;

describe("the OpenAPI document", () => {
  const doc = openApiDocument("http://127.0.0.1:3000");

  it("documents every public route, generated from the routes' zod schemas", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths).sort()).toEqual([
      "/api/health",
      "/api/v1/events",
      "/api/v1/openapi.json",
      "/api/v1/recompute",
      "/api/v1/turns",
    ]);
    const body = doc.paths["/api/v1/events"].post.requestBody.content["application/json"]
      .schema as { anyOf: unknown[] };
    expect(body.anyOf).toHaveLength(2);
    expect(JSON.stringify(body)).toContain("UserPromptSubmit");
    expect(doc.paths["/api/v1/turns"].get.parameters.map((p) => p.name)).toContain("principle");
  });

  // What each handler and the route wrapper (lib/http/route.ts) can answer: 400 only where a
  // body is read, 413 only where its size is limited, 422 where input is validated, 503
  // wherever the database is asked (resolving a caller asks it).
  it.each([
    ["/api/v1/events", "post", ["200", "400", "401", "403", "413", "422", "503"]],
    ["/api/v1/turns", "get", ["200", "401", "403", "422", "503"]],
    ["/api/v1/recompute", "get", ["200", "401", "403", "503"]],
    ["/api/v1/openapi.json", "get", ["200", "401", "403", "503"]],
    ["/api/health", "get", ["200", "401", "503"]],
  ] as const)("%s %s answers %j", (path, method, statuses) => {
    const responses = (doc.paths[path] as Record<string, { responses: Responses }>)[method]!
      .responses;
    expect(Object.keys(responses).sort()).toEqual([...statuses]);
  });

  it("describes the 422 of each route in its own terms, with an example in the error shape", () => {
    const turns = doc.paths["/api/v1/turns"].get.responses["422"];
    expect(turns.description).toMatch(/query parameter/);
    expect(turns.content["application/json"].example).toMatchObject({
      error: { code: "invalid_input", message: "The query parameters are invalid." },
    });
    expect(doc.paths["/api/v1/events"].post.responses["422"].description).toMatch(
      /events are invalid/,
    );
  });

  it("gives the events route a request example that the route's own schema accepts", () => {
    const example =
      doc.paths["/api/v1/events"].post.requestBody.content["application/json"].example;
    expect(parseEventsRequest(example).success).toBe(true);
  });

  it("describes every turn filter", () => {
    for (const parameter of doc.paths["/api/v1/turns"].get.parameters)
      expect(parameter.description, parameter.name).toBeTruthy();
  });
});

describe("the examples", () => {
  it("give the turns page a `next` that the route accepts as `cursor`", async () => {
    const { turnFiltersSchema } = await import("@/lib/schemas/turns");
    const example = openApiDocument("http://127.0.0.1:3000").paths["/api/v1/turns"].get.responses[
      "200"
    ].content["application/json"].example as { next: string };
    expect(turnFiltersSchema.safeParse({ cursor: example.next }).success).toBe(true);
  });
});
