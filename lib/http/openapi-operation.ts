import { z } from "zod";
import {
  errorBodySchema,
  statusesOf,
  type ErrorSpec,
  type HeaderSpec,
  type RouteContract,
} from "./contract";

/*
 * One OpenAPI operation from one route contract (./contract.ts): its parameters,
 * request body and answers, each schema converted by zod's own z.toJSONSchema. Schemas
 * are written as their input: the JSON a client sends, and the JSON it receives (a
 * response schema decodes that into what the handler returned).
 */

export type JsonSchema = z.core.JSONSchema.BaseSchema;
export type MediaTypes = Record<string, { schema?: JsonSchema; example?: unknown }>;
/** A parameter's schema: a JSON Schema of one string-like value (its nested parts are not read). */
export type ParameterSchema = {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  description?: string;
};
export type Parameter = {
  name: string;
  in: "query" | "path";
  required: boolean;
  description?: string;
  schema: ParameterSchema;
};
export type OperationResponse = {
  description: string;
  headers?: Record<string, HeaderSpec>;
  content?: MediaTypes;
};
export type Operation = {
  summary: string;
  description: string;
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { required: true; content: MediaTypes };
  responses: Record<string, OperationResponse>;
};

/** The JSON Schema of what goes over the wire, without the `$schema` line each would repeat. */
export function wireSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io: "input",
    unrepresentable: "any",
  });
  return rest;
}

/** JSON by its schema; a binary media type the contract also names, as bytes (OpenAPI 3.1: no schema). */
function json(schema: z.ZodType, example?: unknown, binary?: string): MediaTypes {
  return {
    "application/json": {
      schema: wireSchema(schema),
      ...(example === undefined ? {} : { example }),
    },
    ...(binary ? { [binary]: {} } : {}),
  };
}

/** Each property of a query or path schema as one parameter; its `.describe()` text says what it does. */
function parameters(schema: z.ZodObject, place: "query" | "path"): Parameter[] {
  const { properties = {}, required = [] } = wireSchema(schema) as {
    properties?: Record<string, ParameterSchema>;
    required?: string[];
  };
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: place,
    required: place === "path" || required.includes(name),
    ...(property.description === undefined ? {} : { description: property.description }),
    schema: property,
  }));
}

function errorResponse(spec: ErrorSpec): OperationResponse {
  return {
    description: spec.description,
    ...(spec.headers ? { headers: spec.headers } : {}),
    content: json(errorBodySchema, spec.example.toJSON()),
  };
}

/** The operation object of one route; statuses in ascending order. */
export function operationOf(contract: RouteContract): Operation {
  const responses: Record<string, OperationResponse> = {};
  for (const status of statusesOf(contract)) {
    const spec = contract.responses[status];
    responses[String(status)] = spec
      ? {
          description: spec.description,
          ...(spec.headers ? { headers: spec.headers } : {}),
          content: json(spec.schema, spec.example, spec.binary),
        }
      : errorResponse(contract.errors[status]!);
  }
  const params = [
    ...(contract.params ? parameters(contract.params, "path") : []),
    ...(contract.query ? parameters(contract.query, "query") : []),
  ];
  return {
    summary: contract.summary,
    description: contract.description,
    ...(contract.access === "public" ? { security: [] } : {}),
    ...(params.length ? { parameters: params } : {}),
    ...(contract.body
      ? {
          requestBody: {
            required: true,
            content: json(contract.body.schema, contract.body.example, contract.body.binary),
          },
        }
      : {}),
    responses,
  };
}
