/** The parts of an OpenAPI 3.1 document the API page shows. */
export type MediaTypes = Record<string, { schema?: unknown }>;

export type Operation = {
  summary?: string;
  description?: string;
  security?: Record<string, unknown[]>[];
  requestBody?: { required?: boolean; content: MediaTypes };
  responses: Record<string, { description: string; content?: MediaTypes }>;
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
