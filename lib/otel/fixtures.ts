/*
 * Test data: OTLP/HTTP JSON exports shaped like those GenAI instrumentations send,
 * one agent turn each (a prompt, a tool call, the final reply), with the attributes
 * each one sets. Used by the mapping's unit tests and the route's database tests.
 *
 * Conventions they follow:
 * https://github.com/open-telemetry/semantic-conventions/blob/v1.41.0/docs/gen-ai/gen-ai-spans.md
 * https://github.com/open-telemetry/semantic-conventions/blob/v1.41.0/docs/gen-ai/gen-ai-agent-spans.md
 * https://github.com/open-telemetry/semantic-conventions/blob/v1.41.0/docs/gen-ai/gen-ai-input-messages.json
 * OTLP JSON: https://github.com/open-telemetry/opentelemetry-proto/blob/main/docs/specification.md#json-protobuf-encoding
 */

type Value = string | number | boolean;
type Attributes = Record<string, Value>;

/** An attribute list in OTLP JSON (strings, ints, doubles, booleans). */
export function keyValues(attributes: Attributes) {
  return Object.entries(attributes).map(([key, value]) => ({
    key,
    value:
      typeof value === "string"
        ? { stringValue: value }
        : typeof value === "boolean"
          ? { boolValue: value }
          : Number.isInteger(value)
            ? { intValue: String(value) }
            : { doubleValue: value },
  }));
}

/** Nanoseconds of `base` plus `offsetMs`, as OTLP JSON writes them. */
const nanos = (base: string, offsetMs: number) =>
  String(BigInt(Date.parse(base) + offsetMs) * 1_000_000n);

export type SpanSpec = {
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** Milliseconds after the trace's start. */
  start: number;
  end: number;
  attributes: Attributes;
  error?: string;
  events?: { name: string; attributes: Attributes }[];
};

/** One resource's spans of one trace as an ExportTraceServiceRequest. */
export function exportOf(options: {
  traceId: string;
  startedAt: string;
  resource: Attributes;
  scope: string;
  spans: SpanSpec[];
}) {
  return {
    resourceSpans: [
      {
        resource: { attributes: keyValues(options.resource) },
        scopeSpans: [
          {
            scope: { name: options.scope },
            spans: options.spans.map((s) => ({
              traceId: options.traceId,
              spanId: s.spanId,
              ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
              name: s.name,
              kind: 1,
              startTimeUnixNano: nanos(options.startedAt, s.start),
              endTimeUnixNano: nanos(options.startedAt, s.end),
              attributes: keyValues(s.attributes),
              ...(s.events
                ? {
                    events: s.events.map((e) => ({
                      name: e.name,
                      timeUnixNano: nanos(options.startedAt, s.end),
                      attributes: keyValues(e.attributes),
                    })),
                  }
                : {}),
              status: s.error ? { code: 2, message: s.error } : { code: 0 },
            })),
          },
        ],
      },
    ],
  };
}

const json = (value: unknown) => JSON.stringify(value);

/**
 * The OpenAI Agents SDK through OpenTelemetry's instrumentation
 * (opentelemetry-instrumentation-openai-agents-v2, GenAISemanticProcessor): an
 * `invoke_agent {agent}` span, `chat {model}` spans carrying the messages as JSON
 * strings, and an `execute_tool {tool}` span; the conversation id on each span.
 */
export const OPENAI_AGENTS_EXPORT = exportOf({
  traceId: "0af7651916cd43dd8448eb211c80319c",
  startedAt: "2026-01-05T10:00:00.000Z",
  resource: { "service.name": "Weather Bot", "service.version": "2.1.0" },
  scope: "opentelemetry.instrumentation.openai_agents",
  spans: [
    {
      spanId: "b7ad6b7169203331",
      parentSpanId: "00f067aa0ba902b7",
      name: "chat gpt-4o",
      start: 100,
      end: 900,
      attributes: {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "gpt-4o",
        "gen_ai.conversation.id": "conv_weather_42",
        "gen_ai.input.messages": json([
          { role: "system", parts: [{ type: "text", content: "You answer weather questions." }] },
          { role: "user", parts: [{ type: "text", content: "What's the weather in Paris?" }] },
        ]),
        "gen_ai.output.messages": json([
          {
            role: "assistant",
            parts: [
              {
                type: "tool_call",
                id: "call_VSPygqKTWdrhaFErNvMV18Yl",
                name: "get_weather",
                arguments: { city: "Paris" },
              },
            ],
            finish_reason: "tool_call",
          },
        ]),
      },
    },
    {
      spanId: "53995c3f42cd8ad8",
      parentSpanId: "00f067aa0ba902b7",
      name: "execute_tool get_weather",
      start: 950,
      end: 1200,
      attributes: {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "get_weather",
        "gen_ai.tool.type": "function",
        "gen_ai.tool.call.id": "call_VSPygqKTWdrhaFErNvMV18Yl",
        "gen_ai.conversation.id": "conv_weather_42",
        "gen_ai.tool.call.arguments": json({ city: "Paris" }),
        "gen_ai.tool.call.result": json({ temperature_c: 18, conditions: "rain" }),
      },
    },
    {
      spanId: "e457b5a2e4d86bd1",
      parentSpanId: "00f067aa0ba902b7",
      name: "chat gpt-4o",
      start: 1250,
      end: 2000,
      attributes: {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "gpt-4o",
        "gen_ai.conversation.id": "conv_weather_42",
        "gen_ai.input.messages": json([
          { role: "system", parts: [{ type: "text", content: "You answer weather questions." }] },
          { role: "user", parts: [{ type: "text", content: "What's the weather in Paris?" }] },
          {
            role: "assistant",
            parts: [
              {
                type: "tool_call",
                id: "call_VSPygqKTWdrhaFErNvMV18Yl",
                name: "get_weather",
                arguments: { city: "Paris" },
              },
            ],
          },
          {
            role: "tool",
            parts: [
              {
                type: "tool_call_response",
                id: "call_VSPygqKTWdrhaFErNvMV18Yl",
                response: { temperature_c: 18, conditions: "rain" },
              },
            ],
          },
        ]),
        "gen_ai.output.messages": json([
          {
            role: "assistant",
            parts: [{ type: "text", content: "It is 18 °C and raining in Paris." }],
            finish_reason: "stop",
          },
        ]),
      },
    },
    {
      spanId: "00f067aa0ba902b7",
      name: "invoke_agent Weather Assistant",
      start: 0,
      end: 2100,
      attributes: {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.provider.name": "openai",
        "gen_ai.agent.name": "Weather Assistant",
        "gen_ai.conversation.id": "conv_weather_42",
      },
    },
  ],
});

/**
 * The Vercel AI SDK's GenAI telemetry (@ai-sdk/otel GenAIOpenTelemetry): a root
 * `invoke_agent {model}` span named by the call's functionId (`gen_ai.agent.name`), a
 * `step N` span (`agent_step`), `chat {model}` and `execute_tool {tool}` spans; a tool
 * that throws sets the span's status to error. No conversation id: the trace is the
 * session. The SDK's default resource has no service name of its own.
 */
export const AI_SDK_EXPORT = exportOf({
  traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
  startedAt: "2026-01-05T11:00:00.000Z",
  resource: { "service.name": "unknown_service:node", "telemetry.sdk.language": "nodejs" },
  scope: "gen_ai",
  spans: [
    {
      spanId: "1000000000000002",
      parentSpanId: "1000000000000001",
      name: "step 1",
      start: 10,
      end: 1500,
      attributes: { "gen_ai.operation.name": "agent_step" },
    },
    {
      spanId: "1000000000000003",
      parentSpanId: "1000000000000002",
      name: "chat claude-sonnet-4.5",
      start: 20,
      end: 800,
      attributes: {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "anthropic",
        "gen_ai.request.model": "claude-sonnet-4.5",
        "gen_ai.input.messages": json([
          { role: "user", parts: [{ type: "text", content: "Find the refund policy." }] },
        ]),
        "gen_ai.output.messages": json([
          {
            role: "assistant",
            parts: [
              {
                type: "tool_call",
                id: "toolu_01A09q90qw90lq917835lq9",
                name: "searchDocs",
                arguments: { query: "refund policy" },
              },
            ],
            finish_reason: "tool-calls",
          },
        ]),
      },
    },
    {
      spanId: "1000000000000004",
      parentSpanId: "1000000000000002",
      name: "execute_tool searchDocs",
      start: 810,
      end: 1400,
      attributes: {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "searchDocs",
        "gen_ai.tool.call.id": "toolu_01A09q90qw90lq917835lq9",
        "gen_ai.tool.type": "function",
        "gen_ai.tool.call.arguments": json({ query: "refund policy" }),
      },
      error: "Search index unavailable",
      events: [
        {
          name: "exception",
          attributes: {
            "exception.type": "Error",
            "exception.message": "Search index unavailable",
          },
        },
      ],
    },
    {
      spanId: "1000000000000001",
      name: "invoke_agent claude-sonnet-4.5",
      start: 0,
      end: 2500,
      attributes: {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.provider.name": "anthropic",
        "gen_ai.request.model": "claude-sonnet-4.5",
        "gen_ai.agent.name": "support-chat",
        "gen_ai.input.messages": json([
          { role: "user", parts: [{ type: "text", content: "Find the refund policy." }] },
        ]),
        "gen_ai.output.messages": json([
          {
            role: "assistant",
            parts: [
              { type: "text", content: "I could not reach the documents; please try again." },
            ],
            finish_reason: "stop",
          },
        ]),
      },
    },
  ],
});

/**
 * The Vercel AI SDK's own telemetry before the GenAI conventions (`ai.*` attributes;
 * https://ai-sdk.dev/docs/ai-sdk-core/telemetry): `ai.generateText` with `ai.prompt`
 * and `ai.response.text`, `ai.generateText.doGenerate` with `ai.prompt.messages`, and
 * `ai.toolCall`; the session in `ai.telemetry.metadata.sessionId`.
 */
export const AI_SDK_LEGACY_EXPORT = exportOf({
  traceId: "6e0c63257de34c92bf9efcd03927272e",
  startedAt: "2026-01-05T11:30:00.000Z",
  resource: { "service.name": "docs-helper" },
  scope: "ai",
  spans: [
    {
      spanId: "2000000000000002",
      parentSpanId: "2000000000000001",
      name: "ai.generateText.doGenerate",
      start: 5,
      end: 600,
      attributes: {
        "operation.name": "ai.generateText.doGenerate docs-helper",
        "ai.operationId": "ai.generateText.doGenerate",
        "ai.telemetry.metadata.sessionId": "chat-7",
        "gen_ai.system": "openai.chat",
        "ai.prompt.messages": json([
          { role: "user", content: [{ type: "text", text: "Summarise the changelog." }] },
        ]),
        "ai.response.finishReason": "tool-calls",
        "ai.response.toolCalls": json([
          { toolCallId: "call_1", toolName: "readFile", input: { path: "CHANGELOG.md" } },
        ]),
      },
    },
    {
      spanId: "2000000000000003",
      parentSpanId: "2000000000000001",
      name: "ai.toolCall",
      start: 610,
      end: 700,
      attributes: {
        "operation.name": "ai.toolCall docs-helper",
        "ai.operationId": "ai.toolCall",
        "ai.telemetry.metadata.sessionId": "chat-7",
        "ai.toolCall.name": "readFile",
        "ai.toolCall.id": "call_1",
        "ai.toolCall.args": json({ path: "CHANGELOG.md" }),
        "ai.toolCall.result": json("## 1.2.0\n- Faster uploads"),
      },
    },
    {
      spanId: "2000000000000001",
      name: "ai.generateText",
      start: 0,
      end: 1500,
      attributes: {
        "operation.name": "ai.generateText docs-helper",
        "ai.operationId": "ai.generateText",
        "ai.telemetry.functionId": "docs-helper",
        "ai.telemetry.metadata.sessionId": "chat-7",
        "ai.prompt": json({ system: "Be brief.", prompt: "Summarise the changelog." }),
        "ai.response.text": "1.2.0 made uploads faster.",
        "ai.response.finishReason": "stop",
      },
    },
  ],
});

/**
 * OpenLLMetry (Traceloop) on the OpenAI client, inside a `@workflow` span: `openai.chat`
 * spans with the older conventions' indexed `gen_ai.prompt.<i>.*` and
 * `gen_ai.completion.<i>.*` attributes and `llm.request.type`; the tool ran in the
 * application without a span of its own, so the call and its result are read from the
 * second call's prompt. The session comes from an association property; the workflow
 * span and an HTTP client span have no GenAI meaning.
 */
export const OPENLLMETRY_EXPORT = exportOf({
  traceId: "a3ce929d0e0e47364bf92f3577b34da6",
  startedAt: "2026-01-05T12:00:00.000Z",
  resource: { "service.name": "billing-agent" },
  scope: "opentelemetry.instrumentation.openai.v1",
  spans: [
    {
      spanId: "3000000000000001",
      parentSpanId: "3000000000000000",
      name: "openai.chat",
      start: 0,
      end: 700,
      attributes: {
        "llm.request.type": "chat",
        "gen_ai.system": "openai",
        "gen_ai.request.model": "gpt-4o-mini",
        "traceloop.association.properties.session_id": "billing-session-9",
        "gen_ai.prompt.0.role": "user",
        "gen_ai.prompt.0.content": "Refund invoice INV-881.",
        "gen_ai.completion.0.role": "assistant",
        "gen_ai.completion.0.finish_reason": "tool_calls",
        "gen_ai.completion.0.tool_calls.0.id": "call_refund_1",
        "gen_ai.completion.0.tool_calls.0.name": "refund_invoice",
        "gen_ai.completion.0.tool_calls.0.arguments": json({ invoice: "INV-881" }),
      },
    },
    {
      spanId: "3000000000000002",
      parentSpanId: "3000000000000000",
      name: "POST",
      start: 710,
      end: 900,
      attributes: { "http.request.method": "POST", "url.full": "https://billing.example/refunds" },
    },
    {
      spanId: "3000000000000003",
      parentSpanId: "3000000000000000",
      name: "openai.chat",
      start: 1000,
      end: 1600,
      attributes: {
        "llm.request.type": "chat",
        "gen_ai.system": "openai",
        "gen_ai.request.model": "gpt-4o-mini",
        "traceloop.association.properties.session_id": "billing-session-9",
        "gen_ai.prompt.0.role": "user",
        "gen_ai.prompt.0.content": "Refund invoice INV-881.",
        "gen_ai.prompt.1.role": "assistant",
        "gen_ai.prompt.1.tool_calls.0.id": "call_refund_1",
        "gen_ai.prompt.1.tool_calls.0.name": "refund_invoice",
        "gen_ai.prompt.1.tool_calls.0.arguments": json({ invoice: "INV-881" }),
        "gen_ai.prompt.2.role": "tool",
        "gen_ai.prompt.2.tool_call_id": "call_refund_1",
        "gen_ai.prompt.2.content": json({ status: "refunded", amount: 42 }),
        "gen_ai.completion.0.role": "assistant",
        "gen_ai.completion.0.finish_reason": "stop",
        "gen_ai.completion.0.content": "Invoice INV-881 was refunded (42 EUR).",
      },
    },
    {
      spanId: "3000000000000000",
      name: "refund.workflow",
      start: 0,
      end: 1700,
      attributes: {
        "traceloop.span.kind": "workflow",
        "traceloop.entity.name": "refund",
        "traceloop.workflow.name": "refund",
        "traceloop.association.properties.session_id": "billing-session-9",
      },
    },
  ],
});
