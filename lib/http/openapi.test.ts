import { describe, expect, it } from "vitest";
import { openApiDocument } from "./openapi";

describe("the OpenAPI document", () => {
  it("documents every public route, generated from the routes' zod schemas", () => {
    const doc = openApiDocument("http://127.0.0.1:3000");
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths).sort()).toEqual(["/api/health", "/api/v1/events", "/api/v1/openapi.json", "/api/v1/recompute", "/api/v1/turns"]);
    const body = doc.paths["/api/v1/events"].post.requestBody.content["application/json"].schema as { anyOf: unknown[] };
    expect(body.anyOf).toHaveLength(2);
    expect(JSON.stringify(body)).toContain("UserPromptSubmit");
    expect(Object.keys(doc.paths["/api/v1/events"].post.responses).sort()).toEqual(["200", "400", "401", "403", "413", "422", "503"]);
    expect(doc.paths["/api/v1/turns"].get.parameters.map((p) => p.name)).toContain("principle");
  });
});
