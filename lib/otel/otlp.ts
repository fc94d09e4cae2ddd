import { z } from "zod";
import { issueLines } from "@/lib/errors";
import { MAX_JSON_DEPTH } from "@/lib/schemas/text";

/*
 * An OTLP ExportTraceServiceRequest in its JSON shape (OTLP/HTTP JSON, or the binary
 * encoding decoded by ./otlp-proto.ts into the same shape), read into plain spans. The
 * request's frame (resourceSpans, scopeSpans, spans as lists) must hold, or the request
 * is not OTLP (400); a span that breaks its own rules (ids that are not hex of the right
 * length, a time that is not a count of nanoseconds, an attribute nested too deep) is
 * rejected alone and counted, as OTLP's partial success allows. Unknown fields are
 * ignored, as OTLP requires of receivers.
 * https://github.com/open-telemetry/opentelemetry-proto/blob/main/docs/specification.md#json-protobuf-encoding
 */

/** An attribute's value as Charter reads it: an OTLP AnyValue without its wrapper (bytes as base64, 64-bit ints as numbers when exact). */
export type AttributeValue =
  string | number | boolean | null | AttributeValue[] | { [key: string]: AttributeValue };
export type Attributes = ReadonlyMap<string, AttributeValue>;

/** One span, read: hex ids, ISO times (null when unset), attributes by key, the events it carries, and its resource's attributes. */
export type OtlpSpan = {
  traceId: string;
  spanId: string;
  /** null for a root span. */
  parentSpanId: string | null;
  name: string;
  start: string | null;
  end: string | null;
  attributes: Attributes;
  events: { name: string; attributes: Attributes }[];
  /** OTLP's STATUS_CODE_ERROR, and its message. */
  error: { message: string } | null;
  resource: Attributes;
};

export type Rejection = { spanId: string | null; reason: string };
export type ReadRequest = { spans: OtlpSpan[]; rejected: Rejection[] };

const anyValueSchema = z
  .unknown()
  .describe(
    "An OTLP AnyValue: one of `stringValue`, `boolValue`, `intValue`, `doubleValue`, `arrayValue` (`{values: [AnyValue]}`), `kvlistValue` (`{values: [KeyValue]}`), `bytesValue` (base64).",
  );
const keyValueSchema = z.object({ key: z.string(), value: anyValueSchema.optional() });
/** Attribute lists are read leniently (an entry without a key is skipped); the documented shape is KeyValue. */
const attributesSchema = z.array(keyValueSchema).optional();
const lenientAttributes = z.array(z.unknown()).optional();

const unixNanoSchema = z
  .union([
    z.string().regex(/^\d{1,20}$/, "must be a count of nanoseconds"),
    z.number().int().min(0),
  ])
  .optional()
  .describe("Nanoseconds since the Unix epoch: a decimal string (or a number).");
const statusCodeSchema = z.union([z.number().int(), z.string()]).optional();

const spanFields = (attributes: z.ZodType) => ({
  traceId: z.string().describe("32 hex digits."),
  spanId: z.string().describe("16 hex digits."),
  parentSpanId: z.string().optional().describe("16 hex digits; empty or absent for a root span."),
  name: z.string().optional(),
  kind: z.union([z.number().int(), z.string()]).optional(),
  startTimeUnixNano: unixNanoSchema,
  endTimeUnixNano: unixNanoSchema,
  attributes,
  events: z
    .array(
      z.object({
        timeUnixNano: unixNanoSchema,
        name: z.string().optional(),
        attributes,
      }),
    )
    .optional(),
  status: z
    .object({
      code: statusCodeSchema.describe("0 unset, 1 ok, 2 error."),
      message: z.string().optional(),
    })
    .optional(),
});

/** One span as OTLP JSON writes it (the fields Charter reads; others are ignored). */
export const otlpSpanSchema = z.object(spanFields(attributesSchema));
const spanReadSchema = z.object(spanFields(lenientAttributes));

const frame = (spans: z.ZodType, attributes: z.ZodType) =>
  z.object({
    resourceSpans: z
      .array(
        z.object({
          resource: z.object({ attributes }).optional(),
          scopeSpans: z
            .array(
              z.object({
                scope: z.object({ name: z.string().optional() }).optional(),
                spans: z.array(spans).optional(),
              }),
            )
            .optional(),
        }),
      )
      .optional(),
  });

/** OTLP/HTTP JSON's ExportTraceServiceRequest, as the OpenAPI document shows it. */
export const exportTraceRequestSchema = frame(otlpSpanSchema, attributesSchema).describe(
  "An OTLP ExportTraceServiceRequest in OTLP/HTTP JSON (`Content-Type: application/json`), or its binary protobuf encoding (`application/x-protobuf`); either may be gzipped (`Content-Encoding: gzip`). Spans are read by the OpenTelemetry GenAI semantic conventions (`gen_ai.*`).",
);
/** The frame a request must have; its spans are read one by one. */
const requestReadSchema = frame(z.unknown(), lenientAttributes);

/** OTLP's ExportTraceServiceResponse in JSON; `partialSuccess` only when spans were rejected or ignored. */
export const exportTraceResponseSchema = z.object({
  partialSuccess: z
    .object({
      rejectedSpans: z
        .string()
        .regex(/^\d+$/)
        .describe("Spans that could not be read or mapped (int64, a decimal string)."),
      errorMessage: z
        .string()
        .describe(
          "Why spans were rejected, and how many spans carried no GenAI meaning and were ignored.",
        ),
    })
    .optional(),
});
export type ExportTraceResponse = z.infer<typeof exportTraceResponseSchema>;

/** Raised for a request without OTLP's frame: nothing of it can be read. */
export class OtlpShapeError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("; "));
    this.name = "OtlpShapeError";
  }
}

class SpanError extends Error {}

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** An AnyValue's value, nested at most MAX_JSON_DEPTH levels (deeper throws SpanError). */
function anyValue(value: unknown, depth: number): AttributeValue {
  if (depth > MAX_JSON_DEPTH)
    throw new SpanError(`an attribute value nests deeper than ${MAX_JSON_DEPTH} levels`);
  if (!isObj(value)) return null;
  if (typeof value.stringValue === "string") return value.stringValue;
  if (typeof value.boolValue === "boolean") return value.boolValue;
  if (typeof value.intValue === "string" || typeof value.intValue === "number") {
    const n = Number(value.intValue);
    return Number.isSafeInteger(n) ? n : String(value.intValue);
  }
  if (typeof value.doubleValue === "number" || typeof value.doubleValue === "string") {
    const n = Number(value.doubleValue);
    return Number.isFinite(n) ? n : String(value.doubleValue);
  }
  if (isObj(value.arrayValue)) {
    const values = value.arrayValue.values;
    return Array.isArray(values) ? values.map((v) => anyValue(v, depth + 1)) : [];
  }
  if (isObj(value.kvlistValue)) return attributeObject(value.kvlistValue.values, depth + 1);
  if (typeof value.bytesValue === "string") return value.bytesValue;
  return null;
}

function entries(list: unknown, depth: number): [string, AttributeValue][] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((kv): [string, AttributeValue][] =>
    isObj(kv) && typeof kv.key === "string" ? [[kv.key, anyValue(kv.value, depth)]] : [],
  );
}

/** A kvlist as a plain object; a key like `__proto__` stays an own property. */
function attributeObject(list: unknown, depth: number): { [key: string]: AttributeValue } {
  return Object.fromEntries(entries(list, depth));
}

/** A list of KeyValues by key (the last of a repeated key wins). */
function attributeMap(list: unknown): Map<string, AttributeValue> {
  return new Map(entries(list, 1));
}

/** Resource attributes: one that nests too deep is left out rather than failing its spans. */
function resourceMap(list: unknown): Map<string, AttributeValue> {
  const out = new Map<string, AttributeValue>();
  for (const kv of Array.isArray(list) ? list : []) {
    try {
      for (const [key, value] of entries([kv], 1)) out.set(key, value);
    } catch (error) {
      if (!(error instanceof SpanError)) throw error;
    }
  }
  return out;
}

function id(text: string | undefined, hexDigits: number, what: string): string | null {
  if (text === undefined || text === "") return null;
  if (text.length !== hexDigits || !/^[0-9a-f]+$/i.test(text))
    throw new SpanError(`${what} must be ${hexDigits} hex digits`);
  const lower = text.toLowerCase();
  return /^0+$/.test(lower) ? null : lower;
}

/** Nanoseconds since the epoch as an ISO time; null when unset (0). */
function timeOf(nanos: string | number | undefined): string | null {
  if (nanos === undefined) return null;
  const ms = Number(BigInt(nanos) / 1_000_000n);
  if (ms === 0) return null;
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) throw new SpanError("a time is out of range");
  return date.toISOString();
}

const isError = (code: unknown) => code === 2 || code === "STATUS_CODE_ERROR";

function readSpan(raw: unknown, resource: Attributes): OtlpSpan {
  const parsed = spanReadSchema.safeParse(raw);
  if (!parsed.success) throw new SpanError(issueLines(parsed.error.issues, "span").join("; "));
  const span = parsed.data;
  const traceId = id(span.traceId, 32, "traceId");
  const spanId = id(span.spanId, 16, "spanId");
  if (!traceId || !spanId) throw new SpanError("traceId and spanId must not be empty or zero");
  return {
    traceId,
    spanId,
    parentSpanId: id(span.parentSpanId, 16, "parentSpanId"),
    name: span.name ?? "",
    start: timeOf(span.startTimeUnixNano),
    end: timeOf(span.endTimeUnixNano),
    attributes: attributeMap(span.attributes),
    events: (span.events ?? []).map((e) => ({
      name: e.name ?? "",
      attributes: attributeMap(e.attributes),
    })),
    error: isError(span.status?.code) ? { message: span.status?.message ?? "" } : null,
    resource,
  };
}

/** The span's id as sent, when it is a string (to name it in a rejection). */
function spanIdOf(raw: unknown): string | null {
  return isObj(raw) && typeof raw.spanId === "string" ? raw.spanId.slice(0, 32) : null;
}

/**
 * Reads a request in OTLP JSON's shape into spans. Throws OtlpShapeError when the
 * request lacks OTLP's frame; a span that cannot be read is rejected with its reason.
 */
export function readTraceRequest(value: unknown): ReadRequest {
  const parsed = requestReadSchema.safeParse(value);
  if (!parsed.success) throw new OtlpShapeError(issueLines(parsed.error.issues));
  const spans: OtlpSpan[] = [];
  const rejected: Rejection[] = [];
  for (const resourceSpans of parsed.data.resourceSpans ?? []) {
    const resource = resourceMap(resourceSpans.resource?.attributes);
    for (const scopeSpans of resourceSpans.scopeSpans ?? [])
      for (const raw of scopeSpans.spans ?? []) {
        try {
          spans.push(readSpan(raw, resource));
        } catch (error) {
          if (!(error instanceof SpanError)) throw error;
          rejected.push({ spanId: spanIdOf(raw), reason: error.message });
        }
      }
  }
  return { spans, rejected };
}
