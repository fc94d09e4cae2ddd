import { randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtobufExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/public/otel/v1/traces/route";
import { SYSTEM_ACTOR } from "@/lib/db/audit";
import { apiKeys } from "@/lib/db/api-keys";
import { sessions } from "@/lib/db/sessions";
import { users } from "@/lib/db/users";
import { resetEnv } from "@/lib/env";
import { AI_SDK_EXPORT, OPENAI_AGENTS_EXPORT, exportOf } from "@/lib/otel/fixtures";
import { OTEL_SOURCE } from "@/lib/otel/map";
import { decodeTraceResponse } from "@/lib/otel/otlp-proto";
import { ensureConstitution } from "@/lib/services/constitution";
import { setupTestDatabase, unique } from "@/test/db";
import { agentTurnSpans, exportSpans, serveRoute, type AgentTurn } from "@/test/otel";
import { MAX_OTLP_BODY_BYTES, MAX_OTLP_VALUES } from "./body";

// POST /api/public/otel/v1/traces served on loopback, fed by the OpenTelemetry SDK's own
// OTLP/HTTP exporters (JSON and protobuf, gzipped or not) and by hand-made requests: the
// turns arrive as sessions with their tool calls, and every refusal has its status and
// the API's error shape.

const PATH = "/api/public/otel/v1/traces";
let teardown: () => Promise<void>;
let server: Awaited<ReturnType<typeof serveRoute>>;
let ingestKey = "";
let readKey = "";

beforeAll(async () => {
  process.env.BETTER_AUTH_SECRET ??= "otel-traces-test-secret-0123456789abcdef";
  resetEnv();
  ({ teardown } = await setupTestDatabase());
  await ensureConstitution();
  const owner = await users.create(
    { email: `${unique("otel")}@example.test`, name: "Owner", role: "editor" },
    SYSTEM_ACTOR,
  );
  const key = async (scopes: Parameters<typeof apiKeys.create>[0]["scopes"]) =>
    (await apiKeys.create({ name: unique("otel-key"), scopes, ownerId: owner.id }, SYSTEM_ACTOR))
      .key;
  ingestKey = await key(["ingest"]);
  readKey = await key(["read"]);
  server = await serveRoute(POST);
});
afterAll(async () => {
  await server?.close();
  await teardown();
});

type ExporterOptions = ConstructorParameters<typeof JsonExporter>[0] & {};
const GZIP = "gzip" as NonNullable<ExporterOptions["compression"]>;

function turn(overrides: Partial<AgentTurn> = {}): AgentTurn {
  return {
    service: "Weather Bot",
    version: "2.1.0",
    conversationId: unique("conv"),
    prompt: "What's the weather in Paris?",
    tool: {
      name: "get_weather",
      callId: unique("call"),
      arguments: { city: "Paris" },
      result: { temperature_c: 18 },
    },
    reply: "It is 18 °C in Paris.",
    ...overrides,
  };
}

/** The stored session as the dashboard reads it: its row, turns and tool calls. */
async function stored(sessionId: string) {
  const { session, turns, toolCalls } = await sessions.get(sessionId);
  return {
    session: {
      source: session.source,
      agent: session.agent,
      agentVersion: session.agentVersion,
      ended: session.endedAt !== null,
    },
    turns: turns.map((t) => ({
      number: t.number,
      prompt: t.prompt,
      response: t.response,
      contextDelivery: t.contextDelivery,
      scored: t.score !== null,
    })),
    toolCalls: toolCalls.map((c) => ({
      turnNumber: c.turnNumber,
      name: c.name,
      input: c.input,
      succeeded: c.succeeded,
    })),
  };
}

const expectedTurn = (t: AgentTurn, succeeded = true) => ({
  session: { source: OTEL_SOURCE, agent: "weather-bot", agentVersion: "2.1.0", ended: false },
  turns: [
    {
      number: 1,
      prompt: t.prompt,
      response: t.reply,
      contextDelivery: "unsupported",
      scored: true,
    },
  ],
  toolCalls: [{ turnNumber: 1, name: t.tool.name, input: t.tool.arguments, succeeded }],
});

describe("the OpenTelemetry SDK's exporters", () => {
  const url = () => `${server.url}${PATH}`;

  it("JSON, one export of the whole turn: a session with its turn, tool call and reply", async () => {
    const t = turn();
    const exporter = new JsonExporter({ url: url(), headers: { "x-api-key": ingestKey } });
    expect((await exportSpans(exporter, await agentTurnSpans(t))).code).toBe(0);
    await exporter.shutdown();
    expect(await stored(t.conversationId!)).toEqual(expectedTurn(t));
  });

  it("protobuf, one export per span as each ended (Authorization: Bearer): the same turn", async () => {
    const t = turn({ tool: { ...turn().tool, error: "city not found", result: undefined } });
    const exporter = new ProtobufExporter({
      url: url(),
      headers: { authorization: `Bearer ${ingestKey}` },
    });
    for (const span of await agentTurnSpans(t))
      expect((await exportSpans(exporter, [span])).code).toBe(0);
    await exporter.shutdown();
    expect(await stored(t.conversationId!)).toEqual(expectedTurn(t, false));
  });

  it("gzipped JSON and protobuf; the same export sent again adds nothing", async () => {
    for (const Exporter of [JsonExporter, ProtobufExporter]) {
      const t = turn();
      const exporter = new Exporter({
        url: url(),
        headers: { "x-api-key": ingestKey },
        compression: GZIP,
      });
      const spans = await agentTurnSpans(t);
      expect((await exportSpans(exporter, spans)).code).toBe(0);
      expect((await exportSpans(exporter, spans)).code).toBe(0);
      await exporter.shutdown();
      expect(await stored(t.conversationId!)).toEqual(expectedTurn(t));
    }
  });

  it("a key without the ingest scope fails the export", async () => {
    const t = turn();
    const exporter = new JsonExporter({ url: url(), headers: { "x-api-key": readKey } });
    expect((await exportSpans(exporter, await agentTurnSpans(t))).code).toBe(1);
    await exporter.shutdown();
    await expect(sessions.get(t.conversationId!)).rejects.toThrow(/No session/);
  });
});

function post(body: BodyInit, headers: Record<string, string>): Promise<Response> {
  return fetch(`${server.url}${PATH}`, {
    method: "POST",
    body,
    headers: { "x-api-key": ingestKey, ...headers },
  });
}
const JSON_TYPE = { "content-type": "application/json" };
const PROTOBUF_TYPE = { "content-type": "application/x-protobuf" };

type ErrorBody = { error: { code: string; message: string; details?: unknown } };
async function refusal(res: Response): Promise<{ status: number } & ErrorBody["error"]> {
  const body = (await res.json()) as ErrorBody;
  expect(Object.keys(body)).toEqual(["error"]);
  return { status: res.status, ...body.error };
}

/** An export whose trace and session are this test's own. */
function ownExport(base: ReturnType<typeof exportOf>) {
  const traceId = randomBytes(16).toString("hex");
  const text = JSON.stringify(base).replaceAll(
    base.resourceSpans[0]!.scopeSpans[0]!.spans[0]!.traceId,
    traceId,
  );
  return { traceId, text };
}

describe("POST /api/public/otel/v1/traces by hand", () => {
  it("takes a gzipped JSON export: the trace is the session, ended with its root span", async () => {
    const { traceId, text } = ownExport(AI_SDK_EXPORT);
    const res = await post(gzipSync(text), { ...JSON_TYPE, "content-encoding": "gzip" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await res.json()).toEqual({
      partialSuccess: {
        rejectedSpans: "0",
        errorMessage: expect.stringMatching(/^1 span ignored: no GenAI prompt/),
      },
    });
    expect(await stored(traceId)).toEqual({
      session: { source: OTEL_SOURCE, agent: "support-chat", agentVersion: null, ended: true },
      turns: [
        {
          number: 1,
          prompt: "Find the refund policy.",
          response: "I could not reach the documents; please try again.",
          contextDelivery: "unsupported",
          scored: true,
        },
      ],
      toolCalls: [
        { turnNumber: 1, name: "searchDocs", input: { query: "refund policy" }, succeeded: false },
      ],
    });
  });

  it("rejects the spans it cannot read, stores the rest, and says so in its answer", async () => {
    const { text } = ownExport(OPENAI_AGENTS_EXPORT);
    const request = JSON.parse(text) as typeof OPENAI_AGENTS_EXPORT;
    request.resourceSpans[0]!.scopeSpans[0]!.spans[0]!.traceId = "not-hex";
    const res = await post(JSON.stringify(request), JSON_TYPE);
    expect(await res.json()).toEqual({
      partialSuccess: {
        rejectedSpans: "1",
        errorMessage: expect.stringContaining(
          "span b7ad6b7169203331: traceId must be 32 hex digits",
        ),
      },
    });
  });

  it("answers a protobuf export in protobuf", async () => {
    const res = await post(new Uint8Array(), PROTOBUF_TYPE);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-protobuf");
    expect(decodeTraceResponse(new Uint8Array(await res.arrayBuffer()))).toEqual({});
  });

  it.each([
    ["no key", {}],
    ["an unknown key", { "x-api-key": "chk_not_a_real_key" }],
    ["an unknown bearer token", { authorization: "Bearer chk_not_a_real_key" }],
  ])("refuses %s with 401", async (_name, auth) => {
    const res = await fetch(`${server.url}${PATH}`, {
      method: "POST",
      body: JSON.stringify(OPENAI_AGENTS_EXPORT),
      headers: { ...JSON_TYPE, ...auth },
    });
    expect(await refusal(res)).toMatchObject({ status: 401, code: "unauthorized" });
  });

  it("refuses a key without the ingest scope with 403", async () => {
    const res = await post("{}", { ...JSON_TYPE, "x-api-key": readKey });
    expect(await refusal(res)).toMatchObject({ status: 403, code: "forbidden" });
  });

  it.each([
    ["invalid JSON", "{", JSON_TYPE, /not valid JSON/],
    [
      "JSON without OTLP's frame",
      '{"resourceSpans": 5}',
      JSON_TYPE,
      /not an OTLP ExportTraceServiceRequest: resourceSpans/,
    ],
    [
      "bytes that are not protobuf",
      Buffer.from("not protobuf at all"),
      PROTOBUF_TYPE,
      /not an OTLP ExportTraceServiceRequest in binary protobuf \(.+\)/,
    ],
    [
      "a truncated protobuf message",
      Uint8Array.from([0x0a, 0x7f, 0x0a]),
      PROTOBUF_TYPE,
      /in binary protobuf \(index out of range/,
    ],
    [
      "bytes that are not gzip",
      "plain",
      { ...JSON_TYPE, "content-encoding": "gzip" },
      /not valid gzip/,
    ],
  ] as const)("refuses %s with 400 saying why", async (_name, body, headers, message) => {
    const res = await post(body as BodyInit, headers);
    const error = await refusal(res);
    expect(error).toMatchObject({ status: 400, code: "bad_request" });
    expect(error.message).toMatch(message);
  });

  it.each([
    ["a Content-Type OTLP does not use", { "content-type": "text/plain" }],
    ["no Content-Type", {}],
    ["a Content-Encoding other than gzip", { ...JSON_TYPE, "content-encoding": "br" }],
  ])("refuses %s with 415", async (_name, headers) => {
    const res = await post("{}", headers);
    expect(await refusal(res)).toMatchObject({ status: 415, code: "unsupported_media_type" });
  });

  it("refuses a body over the limit with 413, as sent and once gunzipped (a gzip bomb)", async () => {
    const big = Buffer.alloc(MAX_OTLP_BODY_BYTES + 1, 0x20);
    expect(await refusal(await post(big, JSON_TYPE))).toMatchObject({
      status: 413,
      code: "payload_too_large",
    });
    const bomb = gzipSync(Buffer.alloc(MAX_OTLP_BODY_BYTES * 4, 0x20));
    expect(bomb.byteLength).toBeLessThan(200_000);
    const error = await refusal(await post(bomb, { ...JSON_TYPE, "content-encoding": "gzip" }));
    expect(error).toMatchObject({ status: 413, code: "payload_too_large" });
    expect(error.message).toMatch(/once decompressed/);
  });

  it("refuses a body with more JSON values than the limit with 413", async () => {
    const values = `[${"0,".repeat(MAX_OTLP_VALUES)}0]`;
    const error = await refusal(await post(values, JSON_TYPE));
    expect(error).toMatchObject({ status: 413, code: "payload_too_large" });
    expect(error.message).toMatch(/JSON values and keys/);
  });

  it("refuses a protobuf body with more fields than the limit with 413, before decoding it", async () => {
    // MAX_OTLP_VALUES + 1 empty ResourceSpans (field 1, length 0): two bytes each.
    const fields = Buffer.alloc((MAX_OTLP_VALUES + 1) * 2);
    for (let i = 0; i < fields.length; i += 2) fields[i] = 0x0a;
    const error = await refusal(await post(fields, PROTOBUF_TYPE));
    expect(error).toMatchObject({ status: 413, code: "payload_too_large" });
    expect(error.message).toMatch(/protobuf fields/);
  });
});
