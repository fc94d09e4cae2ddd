import { PayloadTooLargeError, validationErrorFrom, BadRequestError } from "@/lib/errors";
import { route } from "@/lib/http/route";
import { eventsRequestSchema } from "@/lib/schemas/events";
import { ingestEvents } from "@/lib/services/ingest";

export const dynamic = "force-dynamic";

/** Requests larger than this are refused with 413 before they are parsed. */
export const MAX_EVENTS_BODY_BYTES = 16 * 1024 * 1024;

/**
 * POST /api/v1/events: one agent event or `{events: [...]}` (up to 1000), API key
 * with the ingest scope (or an editor's session). Idempotent by event id; a batch
 * with any invalid event is refused whole (422) and nothing is applied.
 */
export const POST = route({ role: "editor", scope: "ingest" }, async ({ req, caller }) => {
  const declared = Number(req.headers.get("content-length") ?? 0);
  if (declared > MAX_EVENTS_BODY_BYTES) throw new PayloadTooLargeError(`The request is ${declared} bytes; the limit is ${MAX_EVENTS_BODY_BYTES}.`);
  const text = await req.text();
  if (Buffer.byteLength(text) > MAX_EVENTS_BODY_BYTES) throw new PayloadTooLargeError(`The request is over the limit of ${MAX_EVENTS_BODY_BYTES} bytes.`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new BadRequestError("The request body is not valid JSON.");
  }
  const parsed = eventsRequestSchema.safeParse(raw);
  if (!parsed.success) throw validationErrorFrom(parsed.error.issues, "The events are invalid; none was applied.");
  const events = "events" in parsed.data ? parsed.data.events : [parsed.data];
  return ingestEvents(events, { source: caller?.kind === "api_key" ? "api" : "dashboard" });
});
