import type { JsonSchema } from "./schema";

/** The parts of an OpenAPI 3.1 document the API page shows. */
export type MediaTypes = Record<string, { schema?: unknown; example?: unknown }>;

export type Parameter = {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
};

export type Response = {
  description: string;
  content?: MediaTypes;
  headers?: Record<string, { description?: string }>;
};

export type Operation = {
  summary?: string;
  description?: string;
  security?: Record<string, unknown[]>[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: MediaTypes };
  responses: Record<string, Response>;
};

export type SecurityScheme = { type: string; in?: string; name?: string; description?: string };

export type OpenApiDoc = {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  security?: Record<string, unknown[]>[];
  components?: { securitySchemes?: Record<string, SecurityScheme> };
  paths: Record<string, Record<string, Operation>>;
};

export const HTTP_METHODS = ["get", "post", "put", "patch", "delete"] as const;
