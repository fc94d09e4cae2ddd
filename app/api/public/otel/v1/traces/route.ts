import { otelTracesRoute } from "@/lib/http/api-routes";
import { readOtlpBody, type OtlpPayload } from "@/lib/http/otel/body";
import { answerTraces } from "@/lib/http/otel/traces";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/**
 * POST /api/public/otel/v1/traces (lib/http/otel/traces.ts answerTraces): OTLP/HTTP
 * trace exports, JSON or protobuf, gzipped or not, with an API key with the ingest
 * scope (or an editor's session), as POST /api/v1/events takes them.
 */
export const POST = route(otelTracesRoute, ({ body }) => answerTraces(body as OtlpPayload), {
  readBody: readOtlpBody,
  answersWithResponse: true,
});
