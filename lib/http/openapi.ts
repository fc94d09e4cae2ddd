import type { RouteContract } from "./contract";
import { API_ROUTES } from "./api-routes";
import { operationOf, type Operation } from "./openapi-operation";
import { VERSION } from "@/lib/version";

export type OpenApiDocument = {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  components: {
    securitySchemes: Record<
      string,
      { type: string; in: string; name: string; description: string }
    >;
  };
  security: Record<string, string[]>[];
  paths: Record<string, Record<string, Operation>>;
};

/** The operations of a list of route contracts, by path and then lower-case method. */
export function pathsOf(routes: readonly RouteContract[]): OpenApiDocument["paths"] {
  const paths: OpenApiDocument["paths"] = {};
  for (const contract of routes)
    (paths[contract.path] ??= {})[contract.method.toLowerCase()] = operationOf(contract);
  return paths;
}

/**
 * The OpenAPI 3.1 document of Charter's REST API, generated from the registry of route
 * contracts (./api-routes.ts) that route() enforces: the same zod schemas validate
 * requests, check answers in tests, and are written here. Descriptions are CommonMark:
 * `code` spans, nothing else.
 */
export function openApiDocument(baseUrl: string): OpenApiDocument {
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
    paths: pathsOf(API_ROUTES),
  };
}
