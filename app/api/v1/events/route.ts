import { eventsRoute } from "@/lib/http/api-routes";
import {
  answerEvents,
  EVENTS_BODY_LIMITS,
  MAX_EVENTS_BODY_BYTES,
  MAX_EVENTS_BODY_TOKENS,
} from "@/lib/http/events";
import { readJsonBody } from "@/lib/http/limits";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";
export { MAX_EVENTS_BODY_BYTES, MAX_EVENTS_BODY_TOKENS };

/**
 * POST /api/v1/events (lib/http/events.ts answerEvents), API key with the ingest scope
 * or an editor's session. Requests with an API key are answered before they reach
 * this route, by the same code (lib/http/events-direct.ts); this route answers the
 * dashboard's, and any that reach it another way (`next dev`).
 */
export const POST = route(
  eventsRoute,
  ({ req, caller, body, bodyReadAt }) => answerEvents(body, caller, req.headers, bodyReadAt),
  { readBody: (req: Request) => readJsonBody(req, EVENTS_BODY_LIMITS), answersWithResponse: true },
);
