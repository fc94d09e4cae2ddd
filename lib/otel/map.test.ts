import { describe, expect, it } from "vitest";
import {
  AI_SDK_EXPORT,
  AI_SDK_LEGACY_EXPORT,
  exportOf,
  OPENAI_AGENTS_EXPORT,
  OPENLLMETRY_EXPORT,
  type SpanSpec,
} from "./fixtures";
import { agentSlug, kindOf, mapTraceRequest } from "./map";
import { readTraceRequest, type OtlpSpan } from "./otlp";

// GenAI spans as each instrumentation sends them (./fixtures.ts cites the conventions)
// map to the events a hook would have sent for the same turn.

const map = (request: unknown) => mapTraceRequest(readTraceRequest(request));

describe("one agent turn from each instrumentation", () => {
  it("OpenAI Agents SDK (OpenTelemetry's openai-agents instrumentation): prompt, tool, reply in the conversation's session", () => {
    expect(map(OPENAI_AGENTS_EXPORT)).toEqual({
      events: [
        {
          id: "otel-0af7651916cd43dd8448eb211c80319c-prompt-e1f1f5da0344ca07",
          session_id: "conv_weather_42",
          at: "2026-01-05T10:00:00.100Z",
          agent: "weather-bot",
          agent_version: "2.1.0",
          type: "UserPromptSubmit",
          prompt: "What's the weather in Paris?",
          context_delivered: false,
          agent_takes_context: false,
        },
        {
          id: "otel-0af7651916cd43dd8448eb211c80319c-call-5d0885dbf84b3d4c",
          session_id: "conv_weather_42",
          at: "2026-01-05T10:00:01.200Z",
          agent: "weather-bot",
          agent_version: "2.1.0",
          type: "PostToolUse",
          tool_name: "get_weather",
          tool_use_id: "call_VSPygqKTWdrhaFErNvMV18Yl",
          tool_input: { city: "Paris" },
          tool_response: { temperature_c: 18, conditions: "rain" },
        },
        {
          id: "otel-0af7651916cd43dd8448eb211c80319c-stop-699fc4f3ef8fc02c",
          session_id: "conv_weather_42",
          at: "2026-01-05T10:00:02.000Z",
          agent: "weather-bot",
          agent_version: "2.1.0",
          type: "Stop",
          response: "It is 18 °C and raining in Paris.",
          action: "send_message",
        },
      ],
      spans: 4,
      // The agent's span carries no content of its own: its model calls gave the turn.
      ignored: 1,
      rejected: [],
    });
  });

  it("Vercel AI SDK (GenAI telemetry): the trace is the session, a failed tool is recorded as failed, the trace's end ends it", () => {
    expect(map(AI_SDK_EXPORT)).toEqual({
      events: [
        {
          id: "otel-4bf92f3577b34da6a3ce929d0e0e4736-prompt-31ee8d8648174b0f",
          session_id: "4bf92f3577b34da6a3ce929d0e0e4736",
          at: "2026-01-05T11:00:00.000Z",
          agent: "support-chat",
          type: "UserPromptSubmit",
          prompt: "Find the refund policy.",
          context_delivered: false,
          agent_takes_context: false,
        },
        {
          id: "otel-4bf92f3577b34da6a3ce929d0e0e4736-call-5163f0072184f895",
          session_id: "4bf92f3577b34da6a3ce929d0e0e4736",
          at: "2026-01-05T11:00:01.400Z",
          agent: "support-chat",
          type: "PostToolUse",
          tool_name: "searchDocs",
          tool_use_id: "toolu_01A09q90qw90lq917835lq9",
          tool_input: { query: "refund policy" },
          tool_response: { error: "Search index unavailable" },
        },
        {
          id: "otel-4bf92f3577b34da6a3ce929d0e0e4736-stop-d3d5f0197c4935a7",
          session_id: "4bf92f3577b34da6a3ce929d0e0e4736",
          at: "2026-01-05T11:00:02.500Z",
          agent: "support-chat",
          type: "Stop",
          response: "I could not reach the documents; please try again.",
          action: "send_message",
        },
        {
          id: "otel-4bf92f3577b34da6a3ce929d0e0e4736-end",
          session_id: "4bf92f3577b34da6a3ce929d0e0e4736",
          at: "2026-01-05T11:00:02.500Z",
          agent: "support-chat",
          type: "SessionEnd",
          reason: "trace ended",
        },
      ],
      spans: 4,
      // The step span (agent_step).
      ignored: 1,
      rejected: [],
    });
  });

  it("Vercel AI SDK (its own ai.* telemetry): prompt from ai.prompt, tool from ai.toolCall, reply from ai.response.text", () => {
    expect(map(AI_SDK_LEGACY_EXPORT)).toEqual({
      events: [
        {
          id: "otel-6e0c63257de34c92bf9efcd03927272e-prompt-9670f24694715bde",
          session_id: "chat-7",
          at: "2026-01-05T11:30:00.000Z",
          agent: "docs-helper",
          type: "UserPromptSubmit",
          prompt: "Summarise the changelog.",
          context_delivered: false,
          agent_takes_context: false,
        },
        {
          id: "otel-6e0c63257de34c92bf9efcd03927272e-call-74196fe72e4cdc13",
          session_id: "chat-7",
          at: "2026-01-05T11:30:00.700Z",
          agent: "docs-helper",
          type: "PostToolUse",
          tool_name: "readFile",
          tool_use_id: "call_1",
          tool_input: { path: "CHANGELOG.md" },
          tool_response: "## 1.2.0\n- Faster uploads",
        },
        {
          id: "otel-6e0c63257de34c92bf9efcd03927272e-stop-44360aeb01c205cb",
          session_id: "chat-7",
          at: "2026-01-05T11:30:01.500Z",
          agent: "docs-helper",
          type: "Stop",
          response: "1.2.0 made uploads faster.",
          action: "send_message",
        },
      ],
      spans: 3,
      ignored: 0,
      rejected: [],
    });
  });

  it("OpenLLMetry (indexed gen_ai.prompt/completion): the tool round read from the second call's prompt", () => {
    expect(map(OPENLLMETRY_EXPORT)).toEqual({
      events: [
        {
          id: "otel-a3ce929d0e0e47364bf92f3577b34da6-prompt-d17bdbbb7242d07d",
          session_id: "billing-session-9",
          at: "2026-01-05T12:00:00.000Z",
          agent: "billing-agent",
          type: "UserPromptSubmit",
          prompt: "Refund invoice INV-881.",
          context_delivered: false,
          agent_takes_context: false,
        },
        {
          id: "otel-a3ce929d0e0e47364bf92f3577b34da6-call-1d0179e293afd620",
          session_id: "billing-session-9",
          at: "2026-01-05T12:00:01.000Z",
          agent: "billing-agent",
          type: "PostToolUse",
          tool_name: "refund_invoice",
          tool_use_id: "call_refund_1",
          tool_input: { invoice: "INV-881" },
          tool_response: { status: "refunded", amount: 42 },
        },
        {
          id: "otel-a3ce929d0e0e47364bf92f3577b34da6-stop-bd8a886c839879d5",
          session_id: "billing-session-9",
          at: "2026-01-05T12:00:01.600Z",
          agent: "billing-agent",
          type: "Stop",
          response: "Invoice INV-881 was refunded (42 EUR).",
          action: "send_message",
        },
      ],
      spans: 4,
      // The workflow span and the HTTP client span.
      ignored: 2,
      rejected: [],
    });
  });
});

/** The export's spans split in two requests, in the order they ended (as a batch processor sends them). */
function splitByEnd(request: ReturnType<typeof exportOf>, at: number) {
  const [resourceSpans] = request.resourceSpans;
  const spans = [...resourceSpans!.scopeSpans[0]!.spans].sort((a, b) =>
    a.endTimeUnixNano < b.endTimeUnixNano ? -1 : 1,
  );
  const part = (list: typeof spans) => ({
    resourceSpans: [
      { ...resourceSpans, scopeSpans: [{ ...resourceSpans!.scopeSpans[0], spans: list }] },
    ],
  });
  return [part(spans.slice(0, at)), part(spans.slice(at))];
}

describe("ids and order that hold across requests", () => {
  it.each([
    ["OpenAI Agents SDK", OPENAI_AGENTS_EXPORT],
    ["Vercel AI SDK", AI_SDK_EXPORT],
    ["Vercel AI SDK (ai.*)", AI_SDK_LEGACY_EXPORT],
    ["OpenLLMetry", OPENLLMETRY_EXPORT],
  ] as const)("%s: a re-sent export maps to the same ids", (_name, request) => {
    expect(map(request).events.map((e) => e.id)).toEqual(map(request).events.map((e) => e.id));
  });

  it.each([1, 2, 3])(
    "spans sent over two requests (the first %i that ended, then the rest) give the same events, in the same order",
    (at) => {
      const whole = map(OPENAI_AGENTS_EXPORT).events;
      const seen = new Set<string>();
      const parts = splitByEnd(OPENAI_AGENTS_EXPORT, at)
        .flatMap((request) => map(request).events)
        .filter((e) => !seen.has(e.id) && seen.add(e.id));
      expect(parts.map((e) => `${e.type} ${e.id}`)).toEqual(whole.map((e) => `${e.type} ${e.id}`));
    },
  );

  it("a later turn of the conversation, in its own trace, is a new prompt though its history repeats the first", () => {
    const second = exportOf({
      traceId: "0af7651916cd43dd8448eb211c80319d",
      startedAt: "2026-01-05T10:05:00.000Z",
      resource: { "service.name": "Weather Bot" },
      scope: "opentelemetry.instrumentation.openai_agents",
      spans: [
        {
          spanId: "c7ad6b7169203331",
          name: "chat gpt-4o",
          start: 0,
          end: 500,
          attributes: {
            "gen_ai.operation.name": "chat",
            "gen_ai.conversation.id": "conv_weather_42",
            "gen_ai.input.messages": JSON.stringify([
              { role: "user", parts: [{ type: "text", content: "What's the weather in Paris?" }] },
              {
                role: "assistant",
                parts: [{ type: "text", content: "It is 18 °C and raining in Paris." }],
              },
              { role: "user", parts: [{ type: "text", content: "And tomorrow?" }] },
            ]),
            "gen_ai.output.messages": JSON.stringify([
              {
                role: "assistant",
                parts: [{ type: "text", content: "Sunny, 21 °C." }],
                finish_reason: "stop",
              },
            ]),
          },
        },
      ],
    });
    const events = map(second).events;
    expect(events.map((e) => [e.type, e.session_id, "prompt" in e ? e.prompt : ""])).toEqual([
      ["UserPromptSubmit", "conv_weather_42", "And tomorrow?"],
      ["Stop", "conv_weather_42", ""],
    ]);
    expect(events[0]!.id).not.toEqual(map(OPENAI_AGENTS_EXPORT).events[0]!.id);
  });
});

const span = (attributes: SpanSpec["attributes"], extra: Partial<SpanSpec> = {}): OtlpSpan =>
  readTraceRequest(
    exportOf({
      traceId: "11111111111111111111111111111111",
      startedAt: "2026-01-05T09:00:00.000Z",
      resource: {},
      scope: "test",
      spans: [{ spanId: "2222222222222222", name: "s", start: 0, end: 1, attributes, ...extra }],
    }),
  ).spans[0]!;

describe("what a span is", () => {
  it.each([
    [{ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "t" }, "tool"],
    [{ "gen_ai.operation.name": "invoke_agent" }, "agent"],
    [{ "gen_ai.operation.name": "invoke_workflow" }, "agent"],
    [{ "gen_ai.operation.name": "chat" }, "inference"],
    [{ "gen_ai.operation.name": "text_completion" }, "inference"],
    [{ "gen_ai.operation.name": "generate_content" }, "inference"],
    [{ "gen_ai.operation.name": "embeddings" }, null],
    [{ "gen_ai.operation.name": "create_agent" }, null],
    [{ "gen_ai.operation.name": "agent_step" }, null],
    [{ "ai.operationId": "ai.toolCall" }, "tool"],
    [{ "ai.operationId": "ai.streamText" }, "agent"],
    [{ "ai.operationId": "ai.streamText.doStream" }, "inference"],
    [{ "ai.operationId": "ai.embed" }, null],
    [{ "traceloop.span.kind": "tool", "traceloop.entity.name": "lookup" }, "tool"],
    [{ "traceloop.span.kind": "workflow" }, null],
    [{ "gen_ai.tool.name": "lookup" }, "tool"],
    [{ "gen_ai.system": "openai", "gen_ai.prompt.0.content": "hi" }, "inference"],
    [{ "gen_ai.prompt": "[]" }, "inference"],
    [{ "gen_ai.system": "openai", "gen_ai.usage.input_tokens": 12 }, null],
    [{ "http.request.method": "GET" }, null],
  ] as const)("%j is %s", (attributes, kind) => {
    expect(kindOf(span(attributes))).toBe(kind);
  });

  it.each([
    ["Weather Bot", "weather-bot"],
    ["  --My_Agent.v2  ", "my_agent.v2"],
    ["Ünïcode Agent!", "unicode-agent"],
    ["!!!", undefined],
    ["x".repeat(80), "x".repeat(64)],
  ])("names the agent %j as %j", (name, slug) => {
    expect(agentSlug(name)).toBe(slug);
  });
});

describe("content in the older shapes", () => {
  it("reads gen_ai.prompt / gen_ai.completion as JSON, and as span events", () => {
    const attributes = {
      "gen_ai.system": "openai",
      "gen_ai.prompt": JSON.stringify([{ role: "user", content: "Plan a trip." }]),
    };
    const events = [
      {
        name: "gen_ai.content.completion",
        attributes: {
          "gen_ai.completion": JSON.stringify([{ role: "assistant", content: "Day 1: Lyon." }]),
        },
      },
    ];
    const mapped = mapTraceRequest({ spans: [span(attributes, { events })], rejected: [] });
    expect(
      mapped.events.map((e) => [
        e.type,
        "prompt" in e ? e.prompt : "response" in e ? e.response : "",
      ]),
    ).toEqual([
      ["UserPromptSubmit", "Plan a trip."],
      ["Stop", "Day 1: Lyon."],
      ["SessionEnd", ""],
    ]);
  });

  it("skips tool results sent back as user messages (Anthropic) when looking for the prompt", () => {
    const attributes = {
      "gen_ai.system": "anthropic",
      "gen_ai.prompt.0.role": "user",
      "gen_ai.prompt.0.content": "Count the files.",
      "gen_ai.prompt.1.role": "assistant",
      "gen_ai.prompt.1.content": JSON.stringify([
        { type: "tool_use", id: "toolu_1", name: "ls", input: {} },
      ]),
      "gen_ai.prompt.2.role": "user",
      "gen_ai.prompt.2.content": JSON.stringify([
        { type: "tool_result", tool_use_id: "toolu_1", content: "a b c" },
      ]),
    };
    const mapped = mapTraceRequest({
      spans: [span(attributes, { parentSpanId: "3333333333333333" })],
      rejected: [],
    });
    expect(
      mapped.events.map((e) => [
        e.type,
        "prompt" in e ? e.prompt : e.type === "PostToolUse" ? e.tool_response : "",
      ]),
    ).toEqual([
      ["UserPromptSubmit", "Count the files."],
      ["PostToolUse", "a b c"],
    ]);
  });
});

describe("spans that cannot be mapped", () => {
  it("rejects a span whose ids are not hex, alone, and names it", () => {
    const request = exportOf({
      traceId: "nothex",
      startedAt: "2026-01-05T09:00:00.000Z",
      resource: {},
      scope: "test",
      spans: [{ spanId: "2222222222222222", name: "s", start: 0, end: 1, attributes: {} }],
    });
    expect(readTraceRequest(request).rejected).toEqual([
      { spanId: "2222222222222222", reason: "traceId must be 32 hex digits" },
    ]);
  });

  it("rejects a span whose event breaks the events schema (a session id over 200 characters), keeping the others", () => {
    const long = span({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "t",
      "session.id": "s".repeat(201),
    });
    const fine = span({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "t" });
    const mapped = mapTraceRequest({
      spans: [long, { ...fine, traceId: "4".repeat(32) }],
      rejected: [],
    });
    expect(mapped.events.map((e) => e.type)).toEqual(["PostToolUse"]);
    expect(mapped.rejected).toEqual([
      {
        spanId: "2222222222222222",
        reason: "PostToolUse session_id: Too big: expected string to have <=200 characters",
      },
    ]);
  });

  it("rejects a span with an attribute nested deeper than JSON may be stored", () => {
    let value: unknown = { stringValue: "bottom" };
    for (let i = 0; i < 70; i++) value = { arrayValue: { values: [value] } };
    const request = {
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId: "1".repeat(32),
                  spanId: "2".repeat(16),
                  attributes: [{ key: "deep", value }],
                },
              ],
            },
          ],
        },
      ],
    };
    expect(readTraceRequest(request)).toEqual({
      spans: [],
      rejected: [
        { spanId: "2".repeat(16), reason: "an attribute value nests deeper than 64 levels" },
      ],
    });
  });
});
