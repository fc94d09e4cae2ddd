import { createHash } from "node:crypto";
import { agentEventSchema, type AgentEvent, type AgentEventInput } from "@/lib/schemas/events";
import { issueLines } from "@/lib/errors";
import {
  finalReplyOf,
  inputMessages,
  jsonOrValue,
  outputMessages,
  promptOf,
  text,
  toolRoundsOf,
} from "./genai";
import type { OtlpSpan, ReadRequest, Rejection } from "./otlp";

/*
 * OpenTelemetry GenAI spans as Charter's agent events (pure: no I/O, no clock).
 * https://github.com/open-telemetry/semantic-conventions/blob/v1.41.0/docs/gen-ai/gen-ai-spans.md
 * https://github.com/open-telemetry/semantic-conventions/blob/v1.41.0/docs/gen-ai/gen-ai-agent-spans.md
 *
 * Exporters send spans as they end, in batches, so one turn may arrive over several
 * requests: each span is mapped on its own, in an order that holds across requests
 * (a model call ends before the tools it asked for run, and those before the call that
 * reads their results). Event ids come from what the event is, so the same prompt,
 * tool call or reply seen again (in a later model call of the same turn, or a
 * re-sent export) is a duplicate, never a second turn:
 *  - a prompt is the trace and the prompt's text; a tool call, the trace and its call
 *    id (else its span id); a reply, the trace and its text; the end, the trace.
 * Sessions: `gen_ai.conversation.id`, else `session.id` (`langfuse.session.id`,
 * OpenLLMetry's `traceloop.association.properties.session_id`, the AI SDK's
 * `ai.telemetry.metadata.sessionId`) on any span of the trace or its resource, else the
 * trace id. A session that is its trace ends with the trace's root GenAI span.
 */

export const OTEL_SOURCE = "otel";

const SESSION_KEYS = [
  "gen_ai.conversation.id",
  "session.id",
  "langfuse.session.id",
  "traceloop.association.properties.session_id",
  "ai.telemetry.metadata.sessionId",
];
const INFERENCE_OPERATIONS = new Set(["chat", "text_completion", "generate_content"]);
const AGENT_OPERATIONS = new Set(["invoke_agent", "invoke_workflow"]);
const AI_SDK_CALLS = /^ai\.(generateText|streamText|generateObject|streamObject)$/;
const AI_SDK_STEPS =
  /^ai\.(generateText|streamText|generateObject|streamObject)\.do(Generate|Stream)$/;
const LEGACY_CONTENT = /^gen_ai\.(prompt|completion)(\.\d+\..+)?$/;

/** What a span is to Charter: a tool's execution, an agent's run, a model call, or nothing it records. */
export type SpanKind = "tool" | "agent" | "inference" | null;

/** The span's GenAI meaning, by `gen_ai.operation.name` first, then by the attributes older instrumentations set. */
export function kindOf(span: OtlpSpan): SpanKind {
  const a = span.attributes;
  const operation = text(a, "gen_ai.operation.name");
  const aiSdk = text(a, "ai.operationId");
  if (operation === "execute_tool" || aiSdk === "ai.toolCall") return "tool";
  if (text(a, "traceloop.span.kind") === "tool") return "tool";
  if (operation !== null) {
    if (AGENT_OPERATIONS.has(operation)) return "agent";
    return INFERENCE_OPERATIONS.has(operation) ? "inference" : null;
  }
  if (aiSdk !== null)
    return AI_SDK_CALLS.test(aiSdk) ? "agent" : AI_SDK_STEPS.test(aiSdk) ? "inference" : null;
  if (a.has("gen_ai.tool.name")) return "tool";
  for (const key of a.keys())
    if (
      LEGACY_CONTENT.test(key) ||
      key === "gen_ai.input.messages" ||
      key === "gen_ai.output.messages"
    )
      return "inference";
  return null;
}

const hash = (value: string) => createHash("sha256").update(value).digest("hex").slice(0, 16);

/** A lower-case slug as an event's `agent` takes it (lib/schemas/agents.ts AGENT_SLUG), or undefined. */
export function agentSlug(name: string | null): string | undefined {
  const slug = (name ?? "")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[^a-z0-9]+/, "")
    .slice(0, 64)
    .replace(/-+$/, "");
  return slug || undefined;
}

type TraceFacts = {
  sessionId: string;
  sessionIsTrace: boolean;
  agent: string | undefined;
  agentVersion: string | undefined;
};

/** The first value of `key` among the trace's spans, root first. */
function firstOf(spans: OtlpSpan[], key: string): string | null {
  for (const span of spans) {
    const value = text(span.attributes, key)?.trim();
    if (value) return value;
  }
  return null;
}

/** The session, agent and version of one trace's spans (those of this request). */
function factsOf(traceId: string, spans: OtlpSpan[]): TraceFacts {
  const ordered = [...spans].sort(
    (x, y) => Number(x.parentSpanId !== null) - Number(y.parentSpanId !== null),
  );
  const resource = ordered[0]!.resource;
  let sessionId: string | null = null;
  for (const key of SESSION_KEYS) {
    sessionId = firstOf(ordered, key) ?? (key === "session.id" ? text(resource, key) : null);
    if (sessionId) break;
  }
  const service = text(resource, "service.name");
  const fromService =
    service && !service.startsWith("unknown_service") ? agentSlug(service) : undefined;
  const agent =
    fromService ??
    agentSlug(firstOf(ordered, "gen_ai.agent.name") ?? firstOf(ordered, "ai.telemetry.functionId"));
  const version = fromService
    ? text(resource, "service.version")
    : agent
      ? firstOf(ordered, "gen_ai.agent.version")
      : null;
  return {
    sessionId: sessionId ?? traceId,
    sessionIsTrace: sessionId === null,
    agent,
    agentVersion: version?.slice(0, 100) || undefined,
  };
}

/** An event before validation, with where it came from and when it sorts. */
type Candidate = { event: AgentEventInput; at: string | null; order: number; parsed?: AgentEvent };
const ORDER = { UserPromptSubmit: 0, PostToolUse: 1, Stop: 2, SessionEnd: 3 } as const;

/** The error a failed span reports: its status message, an exception event's message, `error.type`. */
function errorOf(span: OtlpSpan): string | null {
  if (!span.error) return null;
  const exception = span.events.find((e) => e.name === "exception");
  return (
    span.error.message ||
    (exception && text(exception.attributes, "exception.message")) ||
    text(span.attributes, "error.type") ||
    "error"
  );
}

const firstAttribute = (span: OtlpSpan, keys: string[]) =>
  keys.map((k) => span.attributes.get(k)).find((v) => v !== undefined && v !== null);

function toolEvent(span: OtlpSpan): Record<string, unknown> & { type: "PostToolUse" } {
  const a = span.attributes;
  const name =
    text(a, "gen_ai.tool.name") ??
    text(a, "ai.toolCall.name") ??
    text(a, "traceloop.entity.name") ??
    (span.name.replace(/^execute_tool\s+/, "") || "tool");
  const callId = text(a, "gen_ai.tool.call.id") ?? text(a, "ai.toolCall.id");
  const input = firstAttribute(span, [
    "gen_ai.tool.call.arguments",
    "ai.toolCall.args",
    "traceloop.entity.input",
  ]);
  const result = firstAttribute(span, [
    "gen_ai.tool.call.result",
    "ai.toolCall.result",
    "traceloop.entity.output",
  ]);
  const error = errorOf(span);
  return {
    type: "PostToolUse",
    id: callId
      ? `otel-${span.traceId}-call-${hash(callId)}`
      : `otel-${span.traceId}-span-${span.spanId}`,
    tool_name: name,
    ...(callId ? { tool_use_id: callId } : {}),
    ...(input === undefined ? {} : { tool_input: jsonOrValue(input) }),
    ...(error !== null
      ? { tool_response: { error } }
      : result === undefined
        ? {}
        : { tool_response: jsonOrValue(result) }),
  };
}

/** The events one span stands for (without the session and agent, which are the trace's). */
function spanEvents(span: OtlpSpan, kind: SpanKind, facts: TraceFacts): Candidate[] {
  const out: Candidate[] = [];
  const add = (event: Record<string, unknown> & { type: keyof typeof ORDER }, at: string | null) =>
    out.push({
      event: {
        ...event,
        session_id: facts.sessionId,
        ...(at ? { at } : {}),
        ...(facts.agent ? { agent: facts.agent } : {}),
        ...(facts.agentVersion ? { agent_version: facts.agentVersion } : {}),
      } as AgentEventInput,
      at,
      order: ORDER[event.type],
    });
  if (kind === "tool") add(toolEvent(span), span.end);
  if (kind === "agent" || kind === "inference") {
    const input = inputMessages(span);
    const output = outputMessages(span);
    const prompt = input ? promptOf(input) : null;
    if (prompt !== null)
      add(
        {
          type: "UserPromptSubmit",
          id: `otel-${span.traceId}-prompt-${hash(prompt)}`,
          prompt,
          // Nothing can be passed back to the agent through a trace: the turn's context is unsupported.
          context_delivered: false,
          agent_takes_context: false,
        },
        span.start,
      );
    for (const { call, response } of input ? toolRoundsOf(input) : [])
      add(
        {
          type: "PostToolUse",
          id: `otel-${span.traceId}-call-${hash(call.id!)}`,
          tool_name: call.name,
          tool_use_id: call.id!,
          ...(call.arguments === undefined
            ? {}
            : { tool_input: jsonOrValue(call.arguments as never) }),
          ...(response === undefined ? {} : { tool_response: jsonOrValue(response as never) }),
        },
        span.start,
      );
    // Only a reply with its text closes a turn: a Stop without it, from an agent span that
    // carries no content while its model calls do, would overwrite the reply they gave.
    const reply = output ? finalReplyOf(output) : null;
    if (reply !== null)
      add(
        { type: "Stop", id: `otel-${span.traceId}-stop-${hash(reply)}`, response: reply },
        span.end,
      );
  }
  if (kind !== "tool" && kind !== null && facts.sessionIsTrace && span.parentSpanId === null)
    add({ type: "SessionEnd", id: `otel-${span.traceId}-end`, reason: "trace ended" }, span.end);
  return out;
}

/** The result of mapping one request: the events to ingest, in order; spans ignored and rejected. */
export type MappedTraces = {
  events: AgentEvent[];
  /** Spans read; of them, those that carried nothing Charter records. */
  spans: number;
  ignored: number;
  rejected: Rejection[];
};

/** ISO times in UTC order as strings. */
const compare = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/** A trace's candidates in the order they happened: by time, then prompt < tool < reply < end; as emitted when a time is missing. */
function inOrder(candidates: Candidate[]): Candidate[] {
  if (candidates.some((c) => c.at === null)) return candidates;
  return candidates
    .map((c, i) => ({ c, i }))
    .sort((x, y) => compare(x.c.at!, y.c.at!) || x.c.order - y.c.order || x.i - y.i)
    .map(({ c }) => c);
}

/**
 * Maps the spans of one OTLP request to agent events, validated by the events API's
 * own schema (lib/schemas/events.ts): UserPromptSubmit for a user prompt (never
 * delivered: `context_delivered: false`), PostToolUse for a tool's execution (a tool
 * span, or a call and its result shown in a model's input), Stop for an agent's final
 * reply, SessionEnd when a trace that is its own session ends. A span whose events
 * break the schema is rejected whole, with the reason; a span with no GenAI meaning,
 * or none Charter records, is ignored. Within a request each event id is kept once.
 */
export function mapTraceRequest(read: ReadRequest): MappedTraces {
  const traces = new Map<string, OtlpSpan[]>();
  for (const span of read.spans) {
    const list = traces.get(span.traceId);
    if (list) list.push(span);
    else traces.set(span.traceId, [span]);
  }
  const rejected = [...read.rejected];
  const events: AgentEvent[] = [];
  const seen = new Set<string>();
  let ignored = 0;
  for (const [traceId, spans] of traces) {
    const facts = factsOf(traceId, spans);
    const candidates: Candidate[] = [];
    for (const span of spans) {
      const own = spanEvents(span, kindOf(span), facts);
      if (own.length === 0) {
        ignored++;
        continue;
      }
      const parsed = own.map(({ event }) => agentEventSchema.safeParse(event));
      const problems = parsed.flatMap((result, i) =>
        result.success
          ? []
          : issueLines(result.error.issues).map((line) => `${own[i]!.event.type} ${line}`),
      );
      if (problems.length > 0) rejected.push({ spanId: span.spanId, reason: problems.join("; ") });
      else own.forEach((c, i) => candidates.push({ ...c, parsed: parsed[i]!.data! }));
    }
    for (const { parsed } of inOrder(candidates)) {
      if (seen.has(parsed!.id)) continue;
      seen.add(parsed!.id);
      events.push(parsed!);
    }
  }
  return { events, spans: read.spans.length, ignored, rejected };
}
