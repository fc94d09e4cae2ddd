import protobuf from "protobufjs/light.js";
import { describe, expect, it } from "vitest";
import {
  decodeTraceRequest,
  decodeTraceResponse,
  encodeTraceResponse,
  ProtobufBudgetError,
  ProtobufDecodeError,
} from "./otlp-proto";
import { readTraceRequest } from "./otlp";

// The decoder against bytes written field by field with protobufjs's Writer (field
// numbers of opentelemetry-proto's trace.proto); the route's database tests send the
// OpenTelemetry SDK's own protobuf exporter's bytes.

const { Writer } = protobuf;
const hex = (text: string) => Buffer.from(text, "hex");

/** A KeyValue with a string value: key = 1, value = 2 (AnyValue string_value = 1). */
function keyValue(key: string, value: string): Uint8Array {
  const any = Writer.create().uint32(10).string(value).finish();
  return Writer.create().uint32(10).string(key).uint32(18).bytes(any).finish();
}

/** One ExportTraceServiceRequest with one span. */
function request(attributes: Uint8Array[], extra: (w: protobuf.Writer) => void = () => {}) {
  const span = Writer.create()
    .uint32(10)
    .bytes(hex("0af7651916cd43dd8448eb211c80319c")) // trace_id = 1
    .uint32(18)
    .bytes(hex("b7ad6b7169203331")) // span_id = 2
    .uint32(42)
    .string("chat gpt-4o") // name = 5
    .uint32(57)
    .fixed64(1767607200000000000) // start_time_unix_nano = 7
    .uint32(65)
    .fixed64(1767607201000000000); // end_time_unix_nano = 8
  for (const kv of attributes) span.uint32(74).bytes(kv); // attributes = 9
  extra(span);
  const scope = Writer.create().uint32(18).bytes(span.finish()).finish(); // spans = 2
  const resource = Writer.create().uint32(10).bytes(keyValue("service.name", "bot")).finish();
  const rs = Writer.create().uint32(10).bytes(resource).uint32(18).bytes(scope).finish();
  return Writer.create().uint32(10).bytes(rs).finish(); // resource_spans = 1
}

describe("decodeTraceRequest", () => {
  it("reads a span into OTLP JSON's shape: hex ids, decimal times, attributes", () => {
    const message = decodeTraceRequest(request([keyValue("gen_ai.operation.name", "chat")]), 1000);
    const { spans, rejected } = readTraceRequest(message);
    expect(rejected).toEqual([]);
    expect(spans).toEqual([
      {
        traceId: "0af7651916cd43dd8448eb211c80319c",
        spanId: "b7ad6b7169203331",
        parentSpanId: null,
        name: "chat gpt-4o",
        start: "2026-01-05T10:00:00.000Z",
        end: "2026-01-05T10:00:01.000Z",
        attributes: new Map([["gen_ai.operation.name", "chat"]]),
        events: [],
        error: null,
        resource: new Map([["service.name", "bot"]]),
      },
    ]);
  });

  it("skips fields it does not know (links, flags), as protobuf requires", () => {
    const withLink = request([], (w) =>
      w
        .uint32(106)
        .bytes(
          Writer.create()
            .uint32(10)
            .bytes(hex("ff".repeat(16)))
            .finish(),
        )
        .uint32(133)
        .fixed32(1),
    );
    expect(readTraceRequest(decodeTraceRequest(withLink, 1000)).spans).toHaveLength(1);
  });

  it("refuses a message with more fields than its budget before decoding it", () => {
    const many = Array.from({ length: 50 }, (_, i) => keyValue(`k${i}`, "v"));
    expect(() => decodeTraceRequest(request(many), 100)).toThrow(ProtobufBudgetError);
    expect(() => decodeTraceRequest(request(many), 1000)).not.toThrow();
  });

  it.each([
    ["truncated", request([]).slice(0, 20)],
    ["a wrong wire type", Uint8Array.from([0x0f, 0x00])],
    ["field number 0", Uint8Array.from([0x02, 0x00])],
    ["a length past the end", Uint8Array.from([0x0a, 0x7f, 0x00])],
  ])("refuses bytes that are not an export (%s)", (_name, bytes) => {
    expect(() => decodeTraceRequest(bytes, 1000)).toThrow(ProtobufDecodeError);
  });

  it("refuses AnyValues nested past protobuf's recursion limit", () => {
    let any = Writer.create().uint32(10).string("bottom").finish();
    for (let i = 0; i < 200; i++) {
      const array = Writer.create().uint32(10).bytes(any).finish(); // ArrayValue.values = 1
      any = Writer.create().uint32(42).bytes(array).finish(); // AnyValue.array_value = 5
    }
    const kv = Writer.create().uint32(10).string("deep").uint32(18).bytes(any).finish();
    expect(() => decodeTraceRequest(request([kv]), 100_000)).toThrow(ProtobufDecodeError);
  });

  it("takes an empty body as an empty export", () => {
    expect(readTraceRequest(decodeTraceRequest(new Uint8Array(), 10))).toEqual({
      spans: [],
      rejected: [],
    });
  });
});

describe("encodeTraceResponse", () => {
  it("is empty on full success and carries the partial success otherwise", () => {
    expect(encodeTraceResponse()).toHaveLength(0);
    expect(
      decodeTraceResponse(encodeTraceResponse({ rejectedSpans: 2, errorMessage: "why" })),
    ).toEqual({
      partialSuccess: { rejectedSpans: "2", errorMessage: "why" },
    });
  });
});
