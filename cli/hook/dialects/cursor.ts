import {
  assemble,
  baseFields,
  checkEventName,
  field,
  text,
  type Payload,
  type Read,
} from "./fields";
import { jsonLine, type Dialect } from "./types";

/** Cursor's `tool_output` is the tool's result as a JSON string: parsed back when it is JSON, kept as text when not. */
function toolOutput(payload: Payload): { value: unknown } | undefined {
  const output = field(payload, "tool_output");
  if (!output || typeof output.value !== "string" || !/^\s*[[{]/.test(output.value)) return output;
  try {
    return { value: JSON.parse(output.value) as unknown };
  } catch {
    return output;
  }
}

/** The first workspace root, where Cursor gives no `cwd` (on every event but the tool ones). */
function workspaceRoot(payload: Payload): string | undefined {
  const roots = payload.workspace_roots;
  return Array.isArray(roots) && typeof roots[0] === "string" ? roots[0] : undefined;
}

/**
 * Cursor (https://cursor.com/docs/agent/hooks): camelCase event names; every payload carries
 * `conversation_id` (the session), `generation_id`, `workspace_roots`, and where Cursor
 * gives them `model`, `cursor_version` and `transcript_path`. beforeSubmitPrompt can only
 * let the prompt through or stop it (`{"continue": true}`): it cannot add context, so the
 * prompt is recorded as undelivered and the constitution's core goes in at sessionStart
 * (`additional_context`). afterAgentResponse carries the reply (`text`) and reports the turn;
 * `stop` carries none and is not taken (it would report an empty turn). postToolUse covers
 * every tool, its result in `tool_output` as a JSON string. Exit 2 blocks; other failures
 * let the action proceed unless the hook is set `failClosed`, which Charter's never is.
 */
export const cursor: Dialect = {
  name: "cursor",
  agent: "cursor",
  label: "Cursor",
  events: {
    sessionStart: "SessionStart",
    beforeSubmitPrompt: "UserPromptSubmit",
    postToolUse: "PostToolUse",
    afterAgentResponse: "Stop",
    sessionEnd: "SessionEnd",
    stop: null,
    preToolUse: null,
    postToolUseFailure: null,
    subagentStart: null,
    subagentStop: null,
    beforeShellExecution: null,
    afterShellExecution: null,
    beforeMCPExecution: null,
    afterMCPExecution: null,
    beforeReadFile: null,
    afterFileEdit: null,
    preCompact: null,
    afterAgentThought: null,
    beforeTabFileRead: null,
    afterTabFileEdit: null,
  },
  promptContext: false,
  build(type, payload, options = {}) {
    checkEventName(type, payload, this.events, this.label);
    const base = baseFields(
      {
        agent: "cursor",
        sessionId: text(payload, "conversation_id") ?? text(payload, "session_id"),
        sessionKey: "conversation_id",
        cwd: text(payload, "cwd") ?? workspaceRoot(payload),
        transcriptPath: text(payload, "transcript_path"),
        agentVersion: text(payload, "cursor_version"),
      },
      options,
    );
    const read: Read = {
      prompt: text(payload, "prompt"),
      toolName: text(payload, "tool_name"),
      toolUseId: text(payload, "tool_use_id"),
      toolInput: field(payload, "tool_input"),
      toolResponse: toolOutput(payload),
      response: text(payload, "text"),
      reason: text(payload, "reason"),
      model: text(payload, "model"),
    };
    const event = assemble(type, base, read);
    // Cursor shows no context to the agent on a prompt: the turn must not claim it was given any.
    if (event.type === "UserPromptSubmit") {
      event.context_delivered = false;
      event.agent_takes_context = false;
    }
    const warnings =
      type === "Stop" && read.response === undefined
        ? [
            "the afterAgentResponse payload has no text; the turn is reported with an empty response",
          ]
        : [];
    return { event, warnings };
  },
  answer(type, context) {
    if (type === "UserPromptSubmit") return jsonLine({ continue: true });
    if (type === "SessionStart" && context) return jsonLine({ additional_context: context });
    return jsonLine({});
  },
};
