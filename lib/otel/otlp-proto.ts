import protobuf from "protobufjs/light.js";

/*
 * OTLP/HTTP's binary encoding of the trace export, decoded and encoded by protobufjs
 * (8.x, pinned in package.json) from a reflection schema. Why not a package that ships
 * the messages: @opentelemetry/otlp-transformer, since 0.300, only serializes requests
 * and deserializes responses with a minimal reader of its own (nothing that decodes an
 * ExportTraceServiceRequest is exported); the versions that carried a protobufjs root
 * exposed it only as a build-internal file, and pinning one would hold the whole
 * OpenTelemetry JS stack at an old release. No maintained npm package ships the
 * opentelemetry-proto .proto files. So the schema below names the messages and fields
 * Charter reads, with the field numbers and wire types of opentelemetry-proto v1.x
 * (opentelemetry/proto/collector/trace/v1/trace_service.proto, trace/v1/trace.proto,
 * common/v1/common.proto, resource/v1/resource.proto); every field it leaves out
 * (links, flags, trace state, dropped counts, scope attributes...) is skipped as an
 * unknown field, as protobuf requires. Enums are read as their integer values, as OTLP
 * JSON writes them. The wire format itself (varints, lengths, groups, unknown fields,
 * UTF-8, nesting up to Reader.recursionLimit) is protobufjs's.
 */

const repeated = (type: string, id: number) => ({ rule: "repeated", type, id });
const field = (type: string, id: number) => ({ type, id });

const SCHEMA = {
  nested: {
    ExportTraceServiceRequest: { fields: { resourceSpans: repeated("ResourceSpans", 1) } },
    ExportTraceServiceResponse: {
      fields: { partialSuccess: field("ExportTracePartialSuccess", 1) },
    },
    ExportTracePartialSuccess: {
      fields: { rejectedSpans: field("int64", 1), errorMessage: field("string", 2) },
    },
    ResourceSpans: {
      fields: { resource: field("Resource", 1), scopeSpans: repeated("ScopeSpans", 2) },
    },
    Resource: { fields: { attributes: repeated("KeyValue", 1) } },
    ScopeSpans: {
      fields: { scope: field("InstrumentationScope", 1), spans: repeated("Span", 2) },
    },
    InstrumentationScope: { fields: { name: field("string", 1), version: field("string", 2) } },
    Span: {
      fields: {
        traceId: field("bytes", 1),
        spanId: field("bytes", 2),
        parentSpanId: field("bytes", 4),
        name: field("string", 5),
        kind: field("int32", 6),
        startTimeUnixNano: field("fixed64", 7),
        endTimeUnixNano: field("fixed64", 8),
        attributes: repeated("KeyValue", 9),
        events: repeated("SpanEvent", 11),
        status: field("Status", 15),
      },
    },
    SpanEvent: {
      fields: {
        timeUnixNano: field("fixed64", 1),
        name: field("string", 2),
        attributes: repeated("KeyValue", 3),
      },
    },
    Status: { fields: { message: field("string", 2), code: field("int32", 3) } },
    KeyValue: { fields: { key: field("string", 1), value: field("AnyValue", 2) } },
    AnyValue: {
      fields: {
        stringValue: field("string", 1),
        boolValue: field("bool", 2),
        intValue: field("int64", 3),
        doubleValue: field("double", 4),
        arrayValue: field("ArrayValue", 5),
        kvlistValue: field("KeyValueList", 6),
        bytesValue: field("bytes", 7),
      },
    },
    ArrayValue: { fields: { values: repeated("AnyValue", 1) } },
    KeyValueList: { fields: { values: repeated("KeyValue", 1) } },
  },
};

const root = protobuf.Root.fromJSON(SCHEMA).resolveAll();
const RequestType = root.lookupType("ExportTraceServiceRequest");
const ResponseType = root.lookupType("ExportTraceServiceResponse");

/** Bytes that are not an ExportTraceServiceRequest (truncated, a wrong wire type, nested too deep...). */
export class ProtobufDecodeError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "ProtobufDecodeError";
  }
}

/** A message with more fields than the budget: refused before it is decoded into objects. */
export class ProtobufBudgetError extends Error {
  constructor(readonly budget: number) {
    super(`more than ${budget} protobuf fields`);
    this.name = "ProtobufBudgetError";
  }
}

/**
 * Counts the fields of a message of `type` between the reader's position and `end`,
 * descending into nested messages the schema knows, and throws once the count passes
 * the budget. The decoded objects cost far more memory than their bytes (an empty
 * KeyValue is 2 bytes on the wire and an object when decoded), so a body within the
 * byte limit could still decode into hundreds of megabytes: this walk, made with
 * protobufjs's own Reader, bounds that before anything is allocated, as
 * JsonTokenCounter does for JSON.
 */
function countFields(
  type: protobuf.Type,
  reader: protobuf.Reader,
  end: number,
  budget: { left: number; total: number },
  depth: number,
): void {
  if (depth > protobuf.Reader.recursionLimit) throw new Error("max depth exceeded");
  while (reader.pos < end) {
    const tag = reader.uint32();
    if (--budget.left < 0) throw new ProtobufBudgetError(budget.total);
    const wireType = tag & 7;
    const nested = type.fieldsById[tag >>> 3]?.resolvedType;
    if (wireType === 2 && nested instanceof protobuf.Type) {
      const length = reader.uint32();
      const stop = reader.pos + length;
      if (stop > end) throw new RangeError(`index out of range: ${stop} > ${end}`);
      countFields(nested, reader, stop, budget, depth + 1);
    } else reader.skipType(wireType, depth, tag >>> 3);
  }
  if (reader.pos !== end) throw new RangeError(`index out of range: ${reader.pos} > ${end}`);
}

/** Lower-case hex of bytes (trace and span ids, as OTLP JSON writes them). */
function hex(bytes: unknown): unknown {
  return bytes instanceof Uint8Array ? Buffer.from(bytes).toString("hex") : bytes;
}

/** Base64 of bytes (an AnyValue's bytesValue, as the proto3 JSON mapping writes it). */
function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64");
}

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj => typeof value === "object" && value !== null;

/** Rewrites the decoded object into OTLP JSON's shape: ids as hex, bytes values as base64, int64 as decimal strings. */
function toJsonShape(message: protobuf.Message): unknown {
  const object = RequestType.toObject(message, { longs: String }) as Obj;
  const pending: unknown[] = [object];
  // Iterative: AnyValues nest as deep as Reader.recursionLimit allows.
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) {
      // One by one: spreading a list of 100,000 values into push overflows the stack.
      for (const item of node) pending.push(item);
      continue;
    }
    if (!isObj(node)) continue;
    if ("traceId" in node || "spanId" in node) {
      node.traceId = hex(node.traceId);
      node.spanId = hex(node.spanId);
      if (node.parentSpanId !== undefined) node.parentSpanId = hex(node.parentSpanId);
    }
    if (node.bytesValue instanceof Uint8Array) node.bytesValue = base64(node.bytesValue);
    for (const value of Object.values(node)) if (isObj(value)) pending.push(value);
  }
  return object;
}

/**
 * Decodes an OTLP ExportTraceServiceRequest into the shape OTLP JSON gives it (so one
 * reader serves both encodings). Throws ProtobufBudgetError for a message with more
 * than `maxFields` fields, and ProtobufDecodeError for bytes that are not such a message.
 */
export function decodeTraceRequest(bytes: Uint8Array, maxFields: number): unknown {
  try {
    countFields(
      RequestType,
      protobuf.Reader.create(bytes),
      bytes.length,
      { left: maxFields, total: maxFields },
      0,
    );
    return toJsonShape(RequestType.decode(bytes));
  } catch (error) {
    if (error instanceof ProtobufBudgetError) throw error;
    throw new ProtobufDecodeError(error instanceof Error ? error.message : String(error));
  }
}

/** The binary ExportTraceServiceResponse; empty (full success) without a partial success. */
export function encodeTraceResponse(partialSuccess?: {
  rejectedSpans: number;
  errorMessage: string;
}): Uint8Array<ArrayBuffer> {
  return new Uint8Array(
    ResponseType.encode(ResponseType.fromObject(partialSuccess ? { partialSuccess } : {})).finish(),
  );
}

/** Reads a binary ExportTraceServiceResponse (tests; a client's view of the answer). */
export function decodeTraceResponse(bytes: Uint8Array): {
  partialSuccess?: { rejectedSpans?: string; errorMessage?: string };
} {
  return ResponseType.toObject(ResponseType.decode(bytes), { longs: String });
}
