import type { AgentEventInput } from "@/lib/schemas/events";
import type { KnownAgent } from "@/lib/schemas/agents";
import { newEventId } from "../event-id";
import { HOOK_LIMITS, type HookEventName } from "../events";
import { clipDeep, PayloadError, type BuildOptions } from "../payload";

// What every dialect reads from a payload the same way: strings, clipped to the contract's limits.

export type Payload = Record<string, unknown>;

/** The payload's string at `key`; anything else (absent, null, a number) is undefined. */
export function text(payload: Payload, key: string): string | undefined {
  const value = payload[key];
  return typeof value === "string" ? value : undefined;
}

/** The payload's value at `key`, boxed so that a present null stays apart from an absent key. */
export function field(payload: Payload, key: string): { value: unknown } | undefined {
  return Object.hasOwn(payload, key) ? { value: payload[key] } : undefined;
}

export function clip(value: string, max: number): string {
  return value.length <= max ? value : value.slice(0, max);
}

/** `{[key]: value clipped}` when there is a non-empty value, `{}` otherwise: for spreading into an event. */
export function optional<K extends string>(
  key: K,
  value: string | undefined,
  max: number,
): { [P in K]?: string } {
  return (value ? { [key]: clip(value, max) } : {}) as { [P in K]?: string };
}

export type BaseFields = Pick<
  AgentEventInput,
  "id" | "session_id" | "at" | "cwd" | "transcript_path" | "agent" | "agent_version"
>;

/**
 * The fields every event carries: a fresh id, the session, when, where, and which agent.
 * Throws PayloadError without a session id: an event of no session cannot be recorded.
 */
export function baseFields(
  fields: {
    agent: KnownAgent;
    sessionId: string | undefined;
    /** The payload's name for its session id, for the error. */
    sessionKey: string;
    cwd?: string;
    transcriptPath?: string;
    agentVersion?: string;
  },
  options: BuildOptions,
): BaseFields {
  if (!fields.sessionId) throw new PayloadError(`the hook payload has no ${fields.sessionKey}`);
  return {
    id: options.id ?? newEventId(),
    session_id: clip(fields.sessionId, HOOK_LIMITS.session_id),
    at: (options.now ?? new Date()).toISOString(),
    ...optional("cwd", fields.cwd, HOOK_LIMITS.path),
    ...optional("transcript_path", fields.transcriptPath, HOOK_LIMITS.path),
    agent: fields.agent,
    ...optional("agent_version", fields.agentVersion?.trim(), HOOK_LIMITS.agent_version),
  };
}

/**
 * The agent names the event in the payload (`hook_event_name`); it must be one the command
 * was set up for (`type`), or a Cursor `stop` or a Claude Code SubagentStop would be
 * reported as the end of the turn. A payload that names no event is taken as it is.
 */
export function checkEventName(
  type: HookEventName,
  payload: Payload,
  events: Readonly<Record<string, HookEventName | null>>,
  agentLabel: string,
): void {
  const named = payload.hook_event_name;
  if (named === undefined) return;
  if (typeof named === "string" && Object.hasOwn(events, named) && events[named] === type) return;
  const shown =
    typeof named === "string" ? JSON.stringify(named.slice(0, 100)) : `a ${typeof named}`;
  throw new PayloadError(
    `the payload is for the hook event ${shown}, not "${type}"; nothing sent (check the command of that hook in ${agentLabel}'s settings)`,
  );
}

/** What a dialect read from its payload, under Charter's names, before clipping. */
export type Read = {
  prompt?: string;
  toolName?: string;
  toolUseId?: string;
  /** Present (even as null) when the payload has the tool's input. */
  toolInput?: { value: unknown };
  toolResponse?: { value: unknown };
  response?: string;
  reason?: string;
  source?: string;
  model?: string;
};

/** The event of `type` from the base fields and what the dialect read, clipped to the contract's limits. */
export function assemble(type: HookEventName, base: BaseFields, read: Read): AgentEventInput {
  switch (type) {
    case "SessionStart":
      return {
        ...base,
        type,
        ...optional("source", read.source, HOOK_LIMITS.source),
        ...optional("model", read.model, HOOK_LIMITS.model),
      };
    case "UserPromptSubmit":
      return { ...base, type, prompt: clip(read.prompt ?? "", HOOK_LIMITS.prompt) };
    case "PostToolUse":
      return {
        ...base,
        type,
        tool_name: clip(read.toolName || "unknown", HOOK_LIMITS.tool_name),
        ...optional("tool_use_id", read.toolUseId, HOOK_LIMITS.tool_use_id),
        ...(read.toolInput ? { tool_input: clipDeep(read.toolInput.value) } : {}),
        ...(read.toolResponse ? { tool_response: clipDeep(read.toolResponse.value) } : {}),
      };
    case "Stop":
      return { ...base, type, response: clip(read.response ?? "", HOOK_LIMITS.response) };
    case "SessionEnd":
      return { ...base, type, ...optional("reason", read.reason, HOOK_LIMITS.reason) };
  }
}
