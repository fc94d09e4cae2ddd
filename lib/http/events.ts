import "server-only";
import type { Access, Caller } from "@/lib/auth/caller";
import { WARM_UP_KEY_ID } from "@/lib/auth/warm-up";
import { validationErrorFrom } from "@/lib/errors";
import { parseEventsRequest } from "@/lib/schemas/events";
import { ingestEvents } from "@/lib/services/ingest";
import { submitEvents, type IngestTiming } from "@/lib/services/ingest-queue";
import type { BodyLimits } from "./limits";

/*
 * POST /api/v1/events, whichever way the request came in: through Next's router
 * (app/api/v1/events/route.ts: a signed-in editor's cookie) or, with an API key (the
 * hook, every agent), straight from Node's server (events-direct.ts), which skips the
 * router's fixed cost per request. Both read the body within the same limits and
 * answer here.
 */

export const EVENTS_PATH = "/api/v1/events";
export const EVENTS_ACCESS: Access = { role: "editor", scope: "ingest" };

/** Bodies larger than this are refused with 413, whether declared or streamed (chunked): reading stops there. */
export const MAX_EVENTS_BODY_BYTES = 16 * 1024 * 1024;
/** Bodies with more JSON values and keys than this are refused with 413 while they are read (500 per event of a full batch). */
export const MAX_EVENTS_BODY_TOKENS = 500_000;
export const EVENTS_BODY_LIMITS: BodyLimits = {
  bytes: MAX_EVENTS_BODY_BYTES,
  tokens: MAX_EVENTS_BODY_TOKENS,
};

/** The header `charter hook` sends, so that its sessions say they came from the hook. */
const CLIENT_HEADER = "x-charter-client";

/** Where a session's events came from: the hook (a key, and the hook's header), another API client, or the dashboard. */
function sourceOf(headers: Headers, caller: Caller | null): "hook" | "api" | "dashboard" {
  if (caller?.kind !== "api_key") return "dashboard";
  return headers.get(CLIENT_HEADER) === "hook" ? "hook" : "api";
}

const serverTiming = (total: number, t: IngestTiming) =>
  [
    `ingest;dur=${total.toFixed(2)}`,
    `retrieve;dur=${t.retrieve.toFixed(2)}`,
    `queue;dur=${t.queue.toFixed(2)}`,
    `commit;dur=${t.commit.toFixed(2)}`,
  ].join(", ");

/**
 * Applies one events request whose body was read (`value`): one agent event or
 * `{events: [...]}` (up to 1000). Idempotent by event id; a batch with any invalid
 * event is refused whole (422) and nothing is applied. The schema normalizes text and
 * bounds dates and depth, so what reaches ingestion can be stored. Concurrent requests
 * are committed in groups (lib/services/ingest-queue.ts); each is answered once its
 * events are stored. The server's own warm-up request (lib/auth/warm-up.ts) runs the
 * whole path alone and is rolled back: nothing is stored. `started` is when the body's
 * first byte was awaited: the Server-Timing header gives the time from there to the
 * commit, and where it went (bench/ingest-latency.ts reads it).
 */
export async function answerEvents(
  value: unknown,
  caller: Caller | null,
  headers: Headers,
  started: number,
): Promise<Response> {
  const parsed = parseEventsRequest(value);
  if (!parsed.success)
    throw validationErrorFrom(parsed.error.issues, "The events are invalid; none was applied.");
  const events = "events" in parsed.data ? parsed.data.events : [parsed.data];
  const source = sourceOf(headers, caller);
  const timing: IngestTiming = { retrieve: 0, queue: 0, commit: 0 };
  const response =
    caller?.kind === "api_key" && caller.keyId === WARM_UP_KEY_ID
      ? await ingestEvents(events, { source, dryRun: true })
      : await submitEvents(events, source, timing);
  return Response.json(response, {
    headers: { "server-timing": serverTiming(performance.now() - started, timing) },
  });
}
