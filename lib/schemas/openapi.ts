import { z } from "zod";

/** What `GET /api/v1/openapi.json` answers: an OpenAPI 3.1 document, checked as far as Charter's API page reads it. */
export const openApiDocumentSchema = z.looseObject({
  openapi: z.literal("3.1.0"),
  info: z.looseObject({ title: z.string(), version: z.string(), description: z.string() }),
  servers: z.array(z.looseObject({ url: z.string() })),
  paths: z.record(
    z.string().startsWith("/"),
    z.partialRecord(
      z.enum(["get", "post", "put", "patch", "delete"]),
      z.looseObject({
        summary: z.string(),
        responses: z.record(
          z.string().regex(/^\d{3}$/),
          z.looseObject({ description: z.string() }),
        ),
      }),
    ),
  ),
});
