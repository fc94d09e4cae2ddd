/**
 * OpenTelemetry for the OTLP endpoint's tests: a loopback server that hands each request
 * to a route handler as Next would, and one agent turn recorded by the real SDK
 * (TracerProvider) with the GenAI conventions' spans
 * (https://github.com/open-telemetry/semantic-conventions/blob/v1.41.0/docs/gen-ai/gen-ai-agent-spans.md),
 * ready for an exporter's `export`.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { ROOT_CONTEXT, SpanStatusCode, trace, type Attributes } from "@opentelemetry/api";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type ReadableSpan,
  type SpanExporter,
} from "@opentelemetry/sdk-trace";

type RouteHandler = (
  req: Request,
  context: { params: Promise<Record<string, string>> },
) => Promise<Response>;

/** Serves `handler` on 127.0.0.1 for every path; an answer the handler could not give is a 599. */
export async function serveRoute(
  handler: RouteHandler,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2)
      headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method,
      headers,
      body: Readable.toWeb(req) as ReadableStream<Uint8Array>,
      duplex: "half",
    } as RequestInit);
    handler(request, { params: Promise.resolve({}) })
      .then(async (response) => {
        const body = Buffer.from(await response.arrayBuffer());
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(body);
      })
      .catch((error: unknown) => {
        res.writeHead(599, { "content-type": "text/plain" });
        res.end(String(error));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type ExportResult = Parameters<Parameters<SpanExporter["export"]>[1]>[0];

/** Sends spans with an exporter, as a span processor would; its result (code 0: success). */
export function exportSpans(exporter: SpanExporter, spans: ReadableSpan[]): Promise<ExportResult> {
  return new Promise((resolve) => exporter.export(spans, resolve));
}

export type AgentTurn = {
  service: string;
  version?: string;
  conversationId?: string;
  prompt: string;
  tool: { name: string; callId: string; arguments: unknown; result?: unknown; error?: string };
  reply: string;
  /** When the turn started (default: a minute ago). */
  startedAt?: number;
};

const json = (value: unknown) => JSON.stringify(value);

/**
 * One agent turn as the SDK records it, in the order the spans ended: a model call that
 * asks for a tool, the tool's execution, the model call that answers, and the agent's
 * span around them (OpenAI Agents SDK instrumentation's shapes).
 */
export async function agentTurnSpans(turn: AgentTurn): Promise<ReadableSpan[]> {
  const memory = new InMemorySpanExporter();
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      "service.name": turn.service,
      ...(turn.version ? { "service.version": turn.version } : {}),
    }),
    spanProcessors: [new SimpleSpanProcessor({ exporter: memory })],
  });
  const tracer = provider.getTracer("charter-otel-test");
  const t0 = turn.startedAt ?? Date.now() - 60_000;
  const common: Attributes = turn.conversationId
    ? { "gen_ai.conversation.id": turn.conversationId }
    : {};
  const root = tracer.startSpan(
    "invoke_agent Assistant",
    {
      startTime: t0,
      attributes: {
        ...common,
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.name": "Assistant",
      },
    },
    ROOT_CONTEXT,
  );
  const inside = trace.setSpan(ROOT_CONTEXT, root);
  const user = { role: "user", parts: [{ type: "text", content: turn.prompt }] };
  const request = {
    role: "assistant",
    parts: [
      {
        type: "tool_call",
        id: turn.tool.callId,
        name: turn.tool.name,
        arguments: turn.tool.arguments,
      },
    ],
  };
  const first = tracer.startSpan(
    "chat gpt-4o",
    {
      startTime: t0 + 10,
      attributes: {
        ...common,
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "openai",
        "gen_ai.input.messages": json([user]),
        "gen_ai.output.messages": json([{ ...request, finish_reason: "tool_call" }]),
      },
    },
    inside,
  );
  first.end(t0 + 100);
  const tool = tracer.startSpan(
    `execute_tool ${turn.tool.name}`,
    {
      startTime: t0 + 110,
      attributes: {
        ...common,
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": turn.tool.name,
        "gen_ai.tool.call.id": turn.tool.callId,
        "gen_ai.tool.call.arguments": json(turn.tool.arguments),
        ...(turn.tool.result === undefined
          ? {}
          : { "gen_ai.tool.call.result": json(turn.tool.result) }),
      },
    },
    inside,
  );
  if (turn.tool.error) {
    tool.recordException(new Error(turn.tool.error), t0 + 190);
    tool.setStatus({ code: SpanStatusCode.ERROR, message: turn.tool.error });
  }
  tool.end(t0 + 200);
  const second = tracer.startSpan(
    "chat gpt-4o",
    {
      startTime: t0 + 210,
      attributes: {
        ...common,
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "openai",
        "gen_ai.input.messages": json([
          user,
          request,
          {
            role: "tool",
            parts: [
              {
                type: "tool_call_response",
                id: turn.tool.callId,
                response: turn.tool.result ?? { error: turn.tool.error },
              },
            ],
          },
        ]),
        "gen_ai.output.messages": json([
          {
            role: "assistant",
            parts: [{ type: "text", content: turn.reply }],
            finish_reason: "stop",
          },
        ]),
      },
    },
    inside,
  );
  second.end(t0 + 300);
  root.end(t0 + 310);
  await provider.forceFlush();
  const spans = memory.getFinishedSpans();
  await provider.shutdown();
  return spans;
}
