import type { AgentEventInput } from "@/lib/schemas/events";
import { newEventId } from "./event-id";
import { HOOK_LIMITS, HOOK_MAX_TOOL_OUTPUT, type HookEventName } from "./events";
import { readLastReply, type LastReply } from "./transcript";

/** A hook payload that cannot become an event: said on stderr, nothing sent. */
export class PayloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PayloadError";
  }
}

export type BuildOptions = {
  id?: string;
  now?: Date;
  readReply?: (transcriptPath: string) => LastReply;
};

export type Built = { event: AgentEventInput; warnings: string[] };

function clip(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max);
}

/**
 * Cuts every string longer than the server keeps (MAX_TOOL_OUTPUT) to its head and tail,
 * where a command and its final error or exit code are. Keeps a Read of a large file or
 * an Edit's originalFile from making requests and spool files of megabytes.
 */
export function clipDeep(value: unknown, max: number = HOOK_MAX_TOOL_OUTPUT): unknown {
  if (typeof value === "string") {
    if (value.length <= max) return value;
    const half = Math.floor(max / 2);
    return `${value.slice(0, half)}\n…[${value.length - 2 * half} characters cut by charter hook]…\n${value.slice(-half)}`;
  }
  if (Array.isArray(value)) return value.map((item) => clipDeep(item, max));
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, clipDeep(item, max)]),
    );
  return value;
}

function text(payload: Record<string, unknown>, key: string): string | undefined {
  const value = payload[key];
  return typeof value === "string" ? value : undefined;
}

/** Parses Claude Code's hook payload (JSON on stdin); throws PayloadError when it is not one. */
export function parsePayload(raw: string): Record<string, unknown> {
  if (!raw.trim())
    throw new PayloadError("no hook payload on stdin (Claude Code sends one as JSON)");
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch (error) {
    throw new PayloadError(
      `the hook payload on stdin is not valid JSON (${(error as Error).message})`,
    );
  }
  if (!data || typeof data !== "object" || Array.isArray(data))
    throw new PayloadError("the hook payload on stdin is not a JSON object");
  return data as Record<string, unknown>;
}

/**
 * Claude Code names the event in the payload (`hook_event_name`). It must be the one the
 * command was installed for: `charter hook Stop` run for a SubagentStop, say, would
 * otherwise report a subagent's stop as the end of the main agent's turn.
 */
export function checkEventName(type: HookEventName, payload: Record<string, unknown>): void {
  const named = payload.hook_event_name;
  if (named === undefined || named === type) return;
  const shown =
    typeof named === "string" ? JSON.stringify(named.slice(0, 100)) : `a ${typeof named}`;
  throw new PayloadError(
    `the payload is for the hook event ${shown}, not "${type}"; nothing sent (check the command of that hook in Claude Code's settings)`,
  );
}

/**
 * Turns a Claude Code hook payload into one event of lib/schemas/events.ts, with a fresh
 * id. Fields the contract does not know are dropped (its objects are strict); strings
 * past the contract's limits are clipped rather than have the whole event refused.
 * Throws PayloadError when the payload is for another event or has no session.
 */
export function buildEvent(
  type: HookEventName,
  payload: Record<string, unknown>,
  options: BuildOptions = {},
): Built {
  checkEventName(type, payload);
  const sessionId = text(payload, "session_id");
  if (!sessionId) throw new PayloadError("the hook payload has no session_id");
  const warnings: string[] = [];
  const transcriptPath = text(payload, "transcript_path");
  const cwd = text(payload, "cwd");
  const base = {
    id: options.id ?? newEventId(),
    session_id: clip(sessionId, HOOK_LIMITS.session_id),
    at: (options.now ?? new Date()).toISOString(),
    ...(cwd ? { cwd: clip(cwd, HOOK_LIMITS.path) } : {}),
    ...(transcriptPath ? { transcript_path: clip(transcriptPath, HOOK_LIMITS.path) } : {}),
  };

  switch (type) {
    case "SessionStart": {
      const source = text(payload, "source");
      const model = text(payload, "model");
      return {
        event: {
          ...base,
          type,
          ...(source ? { source: clip(source, HOOK_LIMITS.source) } : {}),
          ...(model ? { model: clip(model, HOOK_LIMITS.model) } : {}),
        },
        warnings,
      };
    }
    case "UserPromptSubmit":
      return {
        event: { ...base, type, prompt: clip(text(payload, "prompt") ?? "", HOOK_LIMITS.prompt) },
        warnings,
      };
    case "PostToolUse": {
      const toolUseId = text(payload, "tool_use_id");
      return {
        event: {
          ...base,
          type,
          tool_name: clip(text(payload, "tool_name") || "unknown", HOOK_LIMITS.tool_name),
          ...(toolUseId ? { tool_use_id: clip(toolUseId, HOOK_LIMITS.tool_use_id) } : {}),
          ...("tool_input" in payload ? { tool_input: clipDeep(payload.tool_input) } : {}),
          ...("tool_response" in payload ? { tool_response: clipDeep(payload.tool_response) } : {}),
        },
        warnings,
      };
    }
    case "Stop": {
      const reply = transcriptPath
        ? (options.readReply ?? readLastReply)(transcriptPath)
        : { text: "", problem: "the hook payload has no transcript_path" };
      // Newer Claude Code versions put the reply in the payload: the transcript can lag behind it.
      const fromPayload = text(payload, "last_assistant_message");
      const response = fromPayload ?? reply.text;
      if (fromPayload === undefined && reply.problem)
        warnings.push(`${reply.problem}; the turn is reported with an empty response`);
      return {
        event: {
          ...base,
          type,
          response: clip(response, HOOK_LIMITS.response),
          ...(reply.contextUtilization !== undefined
            ? { context_utilization: reply.contextUtilization }
            : {}),
        },
        warnings,
      };
    }
    case "SessionEnd": {
      const reason = text(payload, "reason");
      return {
        event: { ...base, type, ...(reason ? { reason: clip(reason, HOOK_LIMITS.reason) } : {}) },
        warnings,
      };
    }
  }
}
