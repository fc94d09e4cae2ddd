import type { AttributeValue, Attributes, OtlpSpan } from "./otlp";

/*
 * Reading a span's conversation the ways GenAI instrumentations record it, into one
 * message shape:
 *  - the GenAI semantic conventions: `gen_ai.input.messages` / `gen_ai.output.messages`,
 *    a JSON string or a structured value of `{role, parts: [{type: "text", content} |
 *    {type: "tool_call", id, name, arguments} | {type: "tool_call_response", id,
 *    response}], finish_reason}`
 *    (https://github.com/open-telemetry/semantic-conventions/blob/v1.41.0/docs/gen-ai/gen-ai-input-messages.json);
 *  - the older conventions OpenLLMetry still emits: indexed attributes
 *    `gen_ai.prompt.<i>.role|content|tool_call_id`, `gen_ai.prompt.<i>.tool_calls.<j>.*`,
 *    `gen_ai.completion.<i>.role|content|finish_reason|tool_calls.<j>.*`, or one JSON
 *    `gen_ai.prompt` / `gen_ai.completion` (as an attribute or on a
 *    `gen_ai.content.prompt` / `gen_ai.content.completion` span event);
 *  - the Vercel AI SDK's own telemetry before it took the conventions up: `ai.prompt`
 *    (`{system, prompt, messages}`), `ai.prompt.messages`, `ai.response.text`,
 *    `ai.response.finishReason`, `ai.response.toolCalls`.
 * Content in the providers' own shapes (OpenAI `tool_calls`, Anthropic `tool_use` /
 * `tool_result` blocks, AI SDK `tool-call` / `tool-result` parts) is read too.
 */

export type ToolCallRequest = { id: string | null; name: string; arguments: unknown };
export type ToolCallResult = { id: string | null; response: unknown };
export type Message = {
  role: string;
  /** The message's text parts, joined by blank lines ("" when it has none). */
  text: string;
  toolCalls: ToolCallRequest[];
  toolResults: ToolCallResult[];
  finishReason: string | null;
};

/** Finish reasons that mean the model asked for tools rather than answered. */
const TOOL_FINISH = new Set(["tool_call", "tool_calls", "tool-calls", "tool_use", "function_call"]);

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const str = (value: unknown): string | null => (typeof value === "string" ? value : null);

/** A string attribute, or null. */
export function text(attributes: Attributes, key: string): string | null {
  const value = attributes.get(key);
  if (typeof value === "string") return value;
  return typeof value === "number" ? String(value) : null;
}

/** JSON text parsed when it is JSON, else the value as it is (instrumentations record either). */
export function jsonOrValue(value: AttributeValue | undefined): unknown {
  if (typeof value !== "string") return value;
  const trimmed = value.trim();
  if (!/^[[{"]/.test(trimmed)) return value;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return value;
  }
}

/** A content string that is a JSON list of typed blocks (OpenLLMetry writes non-text content so). */
function blocksIn(content: string): Obj[] | null {
  if (!content.trimStart().startsWith("[")) return null;
  const parsed = jsonOrValue(content);
  return Array.isArray(parsed) && parsed.length > 0 && parsed.every((b) => isObj(b) && "type" in b)
    ? (parsed as Obj[])
    : null;
}

function partText(part: Obj): string | null {
  if (part.type !== "text" && part.type !== "input_text" && part.type !== "output_text")
    return null;
  return str(part.content) ?? str(part.text);
}

function toolCallOf(part: Obj): ToolCallRequest | null {
  switch (part.type) {
    case "tool_call":
      return { id: str(part.id), name: str(part.name) ?? "", arguments: part.arguments };
    case "tool-call":
      return {
        id: str(part.toolCallId),
        name: str(part.toolName) ?? "",
        arguments: part.input ?? part.args,
      };
    case "tool_use":
      return { id: str(part.id), name: str(part.name) ?? "", arguments: part.input };
    default:
      return null;
  }
}

function toolResultOf(part: Obj): ToolCallResult | null {
  switch (part.type) {
    case "tool_call_response":
      return { id: str(part.id), response: part.response };
    case "tool-result":
      return { id: str(part.toolCallId), response: part.output ?? part.result };
    case "tool_result":
      return { id: str(part.tool_use_id), response: part.content };
    default:
      return null;
  }
}

/** OpenAI's `tool_calls: [{id, function: {name, arguments}}]` on a message. */
function openAiToolCalls(value: unknown): ToolCallRequest[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((call): ToolCallRequest[] => {
    if (!isObj(call)) return [];
    const fn = isObj(call.function) ? call.function : call;
    const name = str(fn.name);
    return name ? [{ id: str(call.id), name, arguments: fn.arguments }] : [];
  });
}

/** One message in any of the shapes above, or null when it is not a message. */
export function messageOf(raw: unknown): Message | null {
  if (typeof raw === "string") return textMessage("user", raw);
  if (!isObj(raw)) return null;
  const role = str(raw.role) ?? "";
  const content = typeof raw.content === "string" ? (blocksIn(raw.content) ?? raw.content) : null;
  const parts: unknown[] = Array.isArray(raw.parts)
    ? raw.parts
    : Array.isArray(raw.content)
      ? raw.content
      : Array.isArray(content)
        ? content
        : [];
  const objects = parts.filter(isObj);
  const texts = objects.flatMap((part) => partText(part) ?? []);
  if (typeof content === "string") texts.unshift(content);
  const toolCalls = [
    ...objects.flatMap((part) => toolCallOf(part) ?? []),
    ...openAiToolCalls(raw.tool_calls),
  ];
  const toolResults = objects.flatMap((part) => toolResultOf(part) ?? []);
  // OpenAI's tool message: its content is the result of the call it names.
  const callId = str(raw.tool_call_id);
  if (role === "tool" && callId && toolResults.length === 0)
    toolResults.push({ id: callId, response: jsonOrValue(texts.join("\n\n")) });
  return {
    role,
    text: role === "tool" ? "" : texts.join("\n\n"),
    toolCalls,
    toolResults,
    finishReason: str(raw.finish_reason) ?? str(raw.finishReason),
  };
}

function textMessage(role: string, body: string): Message {
  return { role, text: body, toolCalls: [], toolResults: [], finishReason: null };
}

function messagesOf(value: unknown): Message[] | null {
  const parsed = jsonOrValue(value as AttributeValue);
  const list = Array.isArray(parsed) ? parsed : isObj(parsed) ? [parsed] : null;
  return list ? list.flatMap((m) => messageOf(m) ?? []) : null;
}

/**
 * Messages recorded as indexed attributes under `prefix` (`gen_ai.prompt`):
 * `<prefix>.<i>.<field>` and `<prefix>.<i>.tool_calls.<j>.<field>`, in index order.
 */
function indexedMessages(attributes: Attributes, prefix: string): Message[] | null {
  type Slot = { fields: Map<string, unknown>; calls: Map<number, Map<string, unknown>> };
  // Maps, not objects keyed by what was sent: `__proto__`, or a call index of 4,000,000,000, is just a key.
  const byIndex = new Map<number, Slot>();
  const pattern = new RegExp(`^${prefix.replace(/\./g, "\\.")}\\.(\\d+)\\.(.+)$`);
  for (const [key, value] of attributes) {
    const match = pattern.exec(key);
    if (!match) continue;
    const index = Number(match[1]);
    const slot = byIndex.get(index) ?? { fields: new Map(), calls: new Map() };
    byIndex.set(index, slot);
    const call = /^tool_calls\.(\d+)\.(name|arguments|id)$/.exec(match[2]!);
    if (call) {
      const at = Number(call[1]);
      slot.calls.set(at, (slot.calls.get(at) ?? new Map<string, unknown>()).set(call[2]!, value));
    } else slot.fields.set(match[2]!, value);
  }
  if (byIndex.size === 0) return null;
  const inOrder = <T>(map: Map<number, T>) => [...map.entries()].sort(([a], [b]) => a - b);
  return inOrder(byIndex).flatMap(
    ([, { fields, calls }]) =>
      messageOf({
        role: fields.get("role"),
        content: fields.get("content"),
        tool_call_id: fields.get("tool_call_id"),
        finish_reason: fields.get("finish_reason"),
        tool_calls: inOrder(calls).map(([, call]) => ({
          id: call.get("id"),
          function: { name: call.get("name"), arguments: call.get("arguments") },
        })),
      }) ?? [],
  );
}

function eventAttribute(span: OtlpSpan, event: string, key: string): AttributeValue | undefined {
  return span.events.find((e) => e.name === event)?.attributes.get(key);
}

/** The AI SDK's `ai.prompt`: `{system?, prompt?: string | messages, messages?}`. */
function aiSdkPrompt(value: AttributeValue | undefined): Message[] | null {
  const parsed = jsonOrValue(value);
  if (!isObj(parsed)) return null;
  if (typeof parsed.prompt === "string") return [textMessage("user", parsed.prompt)];
  return messagesOf(parsed.messages ?? parsed.prompt);
}

/** What the model was given, in the first shape the span carries; null when it carries none. */
export function inputMessages(span: OtlpSpan): Message[] | null {
  const a = span.attributes;
  return (
    messagesOf(a.get("gen_ai.input.messages")) ??
    indexedMessages(a, "gen_ai.prompt") ??
    messagesOf(a.get("gen_ai.prompt")) ??
    messagesOf(eventAttribute(span, "gen_ai.content.prompt", "gen_ai.prompt")) ??
    messagesOf(a.get("ai.prompt.messages")) ??
    aiSdkPrompt(a.get("ai.prompt"))
  );
}

/** What the model answered, in the first shape the span carries; null when it carries none. */
export function outputMessages(span: OtlpSpan): Message[] | null {
  const a = span.attributes;
  const found =
    messagesOf(a.get("gen_ai.output.messages")) ??
    indexedMessages(a, "gen_ai.completion") ??
    messagesOf(a.get("gen_ai.completion")) ??
    messagesOf(eventAttribute(span, "gen_ai.content.completion", "gen_ai.completion"));
  if (found) return found.map((m) => (m.role ? m : { ...m, role: "assistant" }));
  const reply = text(a, "ai.response.text");
  if (reply === null) return null;
  const calls = jsonOrValue(a.get("ai.response.toolCalls"));
  return [
    {
      ...textMessage("assistant", reply),
      toolCalls: Array.isArray(calls)
        ? calls.filter(isObj).flatMap((c) => toolCallOf({ ...c, type: "tool-call" }) ?? [])
        : [],
      finishReason: text(a, "ai.response.finishReason"),
    },
  ];
}

/** The user's prompt of the turn: the text of the last user message that has text. */
export function promptOf(messages: Message[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === "user" && m.text !== "") return m.text;
  }
  return null;
}

/** The model's final reply: the last output message's text, when it asked for no tool. */
export function finalReplyOf(messages: Message[]): string | null {
  const last = messages.at(-1);
  if (!last || last.text === "" || last.toolCalls.length > 0) return null;
  if (last.finishReason && TOOL_FINISH.has(last.finishReason)) return null;
  return last.text;
}

/**
 * The tool calls of the current turn that a model's input shows done: each result after
 * the last user prompt, with the request (its name and arguments) that carries its id.
 */
export function toolRoundsOf(messages: Message[]): { call: ToolCallRequest; response: unknown }[] {
  let from = 0;
  messages.forEach((m, i) => {
    if (m.role === "user" && m.text !== "") from = i + 1;
  });
  const turn = messages.slice(from);
  const calls = new Map<string, ToolCallRequest>();
  for (const m of turn) for (const call of m.toolCalls) if (call.id) calls.set(call.id, call);
  return turn.flatMap((m) =>
    m.toolResults.flatMap((result) => {
      const call = result.id ? calls.get(result.id) : undefined;
      return call?.name ? [{ call, response: result.response }] : [];
    }),
  );
}
