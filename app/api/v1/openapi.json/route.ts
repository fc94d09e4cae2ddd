import { baseUrl } from "@/lib/env";
import { openApiRoute } from "@/lib/http/api-routes";
import { openApiDocument } from "@/lib/http/openapi";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** GET /api/v1/openapi.json: the API's OpenAPI document (any signed-in person or API key). */
export const GET = route(openApiRoute, () => openApiDocument(baseUrl()));
