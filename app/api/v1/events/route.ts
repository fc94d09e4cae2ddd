import type { Caller } from "@/lib/auth/caller";
import { WARM_UP_KEY_ID } from "@/lib/auth/warm-up";
import { validationErrorFrom } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/limits";
import { route } from "@/lib/http/route";
import { parseEventsRequest } from "@/lib/schemas/events";
import { ingestEvents } from "@/lib/services/ingest";
import { submitEvents } from "@/lib/services/ingest-queue";

export const dynamic = "force-dynamic";

/** Bodies larger than this are refused with 413, whether declared or streamed (chunked): reading stops there. */
export const MAX_EVENTS_BODY_BYTES = 16 * 1024 * 1024;
/** Bodies with more JSON values and keys than this are refused with 413 while they are read (500 per event of a full batch). */
export const MAX_EVENTS_BODY_TOKENS = 500_000;

/** The header `charter hook` sends, so that its sessions say they came from the hook. */
const CLIENT_HEADER = "x-charter-client";

/** Where a session's events came from: the hook (a key, and the hook's header), another API client, or the dashboard. */
function sourceOf(req: Request, caller: Caller | null): "hook" | "api" | "dashboard" {
  if (caller?.kind !== "api_key") return "dashboard";
  return req.headers.get(CLIENT_HEADER) === "hook" ? "hook" : "api";
}

/**
 * POST /api/v1/events: one agent event or `{events: [...]}` (up to 1000), API key
 * with the ingest scope (or an editor's session). Idempotent by event id; a batch
 * with any invalid event is refused whole (422) and nothing is applied. The schema
 * normalizes text and bounds dates and depth, so what reaches ingestion can be stored.
 * Concurrent requests are committed in groups (lib/services/ingest-queue.ts); each is
 * answered once its events are stored. The server's own warm-up request
 * (lib/auth/warm-up.ts) runs the whole path alone and is rolled back: nothing is stored.
 */
export const POST = route({ role: "editor", scope: "ingest" }, async ({ req, caller }) => {
  const started = performance.now();
  const body = await readJsonBody(req, {
    bytes: MAX_EVENTS_BODY_BYTES,
    tokens: MAX_EVENTS_BODY_TOKENS,
  });
  if ("refused" in body) return body.refused;
  const parsed = parseEventsRequest(body.value);
  if (!parsed.success)
    throw validationErrorFrom(parsed.error.issues, "The events are invalid; none was applied.");
  const events = "events" in parsed.data ? parsed.data.events : [parsed.data];
  const source = sourceOf(req, caller);
  const response =
    caller?.kind === "api_key" && caller.keyId === WARM_UP_KEY_ID
      ? await ingestEvents(events, { source, dryRun: true })
      : await submitEvents(events, source);
  // The time from the body's first byte to the commit, apart from the key check and the HTTP stack (bench/ingest-latency.ts reads it).
  return Response.json(response, {
    headers: { "server-timing": `ingest;dur=${(performance.now() - started).toFixed(2)}` },
  });
});
