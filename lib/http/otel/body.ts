import "server-only";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import { BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from "@/lib/errors";
import {
  decodeTraceRequest,
  ProtobufBudgetError,
  ProtobufDecodeError,
} from "@/lib/otel/otlp-proto";
import { MAX_EVENTS_BODY_BYTES, MAX_EVENTS_BODY_TOKENS } from "../events";
import { JsonTokenCounter, refused, type JsonBody } from "../limits";

/*
 * The body of an OTLP/HTTP trace export, read within the events API's limits: at most
 * MAX_OTLP_BODY_BYTES as sent and again once gunzipped (a small gzip body can inflate a
 * thousandfold; decompression stops at the limit), and at most MAX_OTLP_VALUES JSON
 * values and keys, or protobuf fields, before anything is decoded into objects.
 * https://github.com/open-telemetry/opentelemetry-proto/blob/main/docs/specification.md#otlphttp-request
 */

/** Bodies larger than this, before or after gunzip, are refused with 413 (the events API's limit). */
export const MAX_OTLP_BODY_BYTES = MAX_EVENTS_BODY_BYTES;
/** JSON values and keys, or protobuf fields, a body may hold (the events API's token limit). */
export const MAX_OTLP_VALUES = MAX_EVENTS_BODY_TOKENS;

export type OtlpEncoding = "json" | "protobuf";
/** A read export: its encoding (the answer's too) and the request in OTLP JSON's shape. */
export type OtlpPayload = { encoding: OtlpEncoding; message: unknown };

const MEDIA_TYPES: Record<string, OtlpEncoding> = {
  "application/json": "json",
  "application/x-protobuf": "protobuf",
  "application/protobuf": "protobuf",
};

/** The encoding a request's Content-Type names; any other is refused with 415. */
export function encodingOf(headers: Headers): OtlpEncoding {
  const type = headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  const encoding = MEDIA_TYPES[type];
  if (!encoding)
    throw new UnsupportedMediaTypeError(
      `OTLP/HTTP takes Content-Type application/json or application/x-protobuf; this request sent ${type || "none"}.`,
    );
  return encoding;
}

/** Whether the body is gzipped; a Content-Encoding other than gzip or identity is refused with 415. */
function gzipped(headers: Headers): boolean {
  const coding = headers.get("content-encoding")?.trim().toLowerCase() ?? "";
  if (coding === "" || coding === "identity") return false;
  if (coding === "gzip" || coding === "x-gzip") return true;
  throw new UnsupportedMediaTypeError(
    `OTLP/HTTP bodies may be sent as they are or with Content-Encoding gzip; this request sent ${coding}.`,
  );
}

/** The body's bytes as sent, or the 413 once it passes the limit (the rest is read and dropped first). */
async function readRaw(
  req: Request,
): Promise<Uint8Array | Extract<JsonBody, { refused: Response }>> {
  const chunks = req.body ? req.body[Symbol.asyncIterator]() : null;
  const limit = MAX_OTLP_BODY_BYTES;
  const declared = Number(req.headers.get("content-length") ?? 0);
  if (declared > limit)
    return refused(
      `The request is ${declared} bytes; the limit is ${limit}.`,
      { chunks, read: 0, limit },
      true,
    );
  const parts: Uint8Array[] = [];
  let size = 0;
  while (chunks) {
    const { done, value } = await chunks.next();
    if (done) break;
    size += value.byteLength;
    if (size > limit)
      return refused(
        `The request is over the limit of ${limit} bytes.`,
        { chunks, read: size, limit },
        true,
      );
    parts.push(value);
  }
  return Buffer.concat(parts);
}

const gunzipAsync = promisify(gunzip);

/** Gunzips within the limit: inflating stops as soon as the output would pass it (413). */
async function inflate(bytes: Uint8Array): Promise<Uint8Array> {
  try {
    return await gunzipAsync(bytes, { maxOutputLength: MAX_OTLP_BODY_BYTES });
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE")
      throw new PayloadTooLargeError(
        `The request is over the limit of ${MAX_OTLP_BODY_BYTES} bytes once decompressed.`,
      );
    throw new BadRequestError(
      `The request body is not valid gzip (Content-Encoding: gzip): ${(error as Error).message}.`,
    );
  }
}

function parseJson(bytes: Uint8Array): unknown {
  if (new JsonTokenCounter().add(bytes) > MAX_OTLP_VALUES)
    throw new PayloadTooLargeError(
      `The request holds more than ${MAX_OTLP_VALUES} JSON values and keys; send fewer spans per request.`,
    );
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new BadRequestError("The request body is not valid JSON.");
  }
}

function decodeProtobuf(bytes: Uint8Array): unknown {
  try {
    return decodeTraceRequest(bytes, MAX_OTLP_VALUES);
  } catch (error) {
    if (error instanceof ProtobufBudgetError)
      throw new PayloadTooLargeError(
        `The request holds more than ${MAX_OTLP_VALUES} protobuf fields; send fewer spans per request.`,
      );
    if (error instanceof ProtobufDecodeError)
      throw new BadRequestError(
        `The request body is not an OTLP ExportTraceServiceRequest in binary protobuf (${error.message}).`,
      );
    throw error;
  }
}

/**
 * Reads an OTLP/HTTP trace export: JSON or binary protobuf (by Content-Type, else 415),
 * gzipped or not (by Content-Encoding, else 415), within the limits above (413), decoded
 * into OTLP JSON's shape (400 for a body that is not what its Content-Type says).
 */
export async function readOtlpBody(req: Request): Promise<JsonBody> {
  const encoding = encodingOf(req.headers);
  const gzip = gzipped(req.headers);
  const raw = await readRaw(req);
  if (!(raw instanceof Uint8Array)) return raw;
  const bytes = gzip ? await inflate(raw) : raw;
  const message = encoding === "json" ? parseJson(bytes) : decodeProtobuf(bytes);
  const payload: OtlpPayload = { encoding, message };
  return { value: payload };
}
