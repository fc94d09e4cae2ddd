import "server-only";
import { BadRequestError } from "@/lib/errors";
import { log } from "@/lib/log";
import { mapTraceRequest, OTEL_SOURCE, type MappedTraces } from "@/lib/otel/map";
import { encodeTraceResponse } from "@/lib/otel/otlp-proto";
import { OtlpShapeError, readTraceRequest, type ExportTraceResponse } from "@/lib/otel/otlp";
import { MAX_BATCH } from "@/lib/schemas/events";
import { submitEvents } from "@/lib/services/ingest-queue";
import type { OtlpPayload } from "./body";

/*
 * POST /api/public/otel/v1/traces: the spans of an OTLP/HTTP export become agent events
 * (lib/otel/map.ts) and go through the same ingestion as POST /api/v1/events (group
 * commit, idempotent by event id), under the source "otel". Answered with OTLP's
 * ExportTraceServiceResponse in the request's encoding, once every event is stored.
 */

/** How many rejection reasons an answer names (the OTLP spec asks for small answers). */
const REASONS_SHOWN = 3;
const MAX_MESSAGE_CHARS = 2_000;

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** OTLP's partial success: the spans rejected and why, and the spans ignored; absent when every span was mapped. */
function partialSuccess(mapped: MappedTraces): ExportTraceResponse["partialSuccess"] {
  const { rejected, ignored } = mapped;
  if (rejected.length === 0 && ignored === 0) return undefined;
  const parts: string[] = [];
  if (rejected.length > 0) {
    const reasons = rejected
      .slice(0, REASONS_SHOWN)
      .map((r) => (r.spanId ? `span ${r.spanId}: ${r.reason}` : r.reason));
    const more =
      rejected.length > REASONS_SHOWN ? `; and ${rejected.length - REASONS_SHOWN} more` : "";
    parts.push(
      `${plural(rejected.length, "span")} could not be mapped (${reasons.join("; ")}${more}).`,
    );
  }
  if (ignored > 0)
    parts.push(
      `${plural(ignored, "span")} ignored: no GenAI prompt, tool call or reply (gen_ai.operation.name invoke_agent, chat or execute_tool, with content) that Charter records.`,
    );
  const message = parts.join(" ");
  return {
    rejectedSpans: String(rejected.length),
    errorMessage:
      message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS - 1)}…` : message,
  };
}

/** Stores the events in order, at most MAX_BATCH per group commit; a re-sent export finds them all duplicates. */
async function ingest(mapped: MappedTraces): Promise<{ accepted: number; duplicates: number }> {
  const totals = { accepted: 0, duplicates: 0 };
  for (let start = 0; start < mapped.events.length; start += MAX_BATCH) {
    const answer = await submitEvents(mapped.events.slice(start, start + MAX_BATCH), OTEL_SOURCE);
    totals.accepted += answer.accepted;
    totals.duplicates += answer.duplicates;
  }
  return totals;
}

/**
 * Answers one read export: 400 for a body without OTLP's frame; otherwise every span
 * that maps is stored and the answer is OTLP's ExportTraceServiceResponse (JSON or
 * protobuf, as the request was), with a partial success naming the spans rejected and
 * counting those ignored. A line is logged when spans were ignored or rejected.
 */
export async function answerTraces(payload: OtlpPayload): Promise<Response> {
  let mapped: MappedTraces;
  try {
    mapped = mapTraceRequest(readTraceRequest(payload.message));
  } catch (error) {
    if (!(error instanceof OtlpShapeError)) throw error;
    throw new BadRequestError(
      `The request body is not an OTLP ExportTraceServiceRequest: ${error.problems.slice(0, REASONS_SHOWN).join("; ")}.`,
    );
  }
  const stored = await ingest(mapped);
  const partial = partialSuccess(mapped);
  if (partial)
    log.info(
      `otel traces: ${plural(mapped.spans, "span")} read, ${plural(mapped.events.length, "event")} (${stored.accepted} new, ${stored.duplicates} duplicate), ${mapped.ignored} ignored (nothing Charter records), ${mapped.rejected.length} rejected`,
    );
  if (payload.encoding === "protobuf")
    return new Response(
      encodeTraceResponse(
        partial && {
          rejectedSpans: Number(partial.rejectedSpans),
          errorMessage: partial.errorMessage,
        },
      ),
      { headers: { "content-type": "application/x-protobuf" } },
    );
  const body: ExportTraceResponse = partial ? { partialSuccess: partial } : {};
  return Response.json(body);
}
