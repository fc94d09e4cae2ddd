import { assemble, baseFields, checkEventName, field, text, type Read } from "./fields";
import { claude } from "./claude";
import type { Dialect } from "./types";

/**
 * OpenAI Codex CLI (https://developers.openai.com/codex/hooks; payloads as in
 * codex-rs/hooks/schema/generated/*.command.input.schema.json of github.com/openai/codex).
 * Claude Code's event names and snake_case payloads, plus `turn_id` and `model` on every
 * turn-scoped event; no SessionEnd. Stop carries the reply (`last_assistant_message`, which
 * may be null); the transcript is Codex's own rollout format, so it is not read. Output is
 * Claude Code's (`hookSpecificOutput.additionalContext` for UserPromptSubmit and
 * SessionStart); plain text on stdout would become context too, so the hook prints only
 * JSON. Exit 2 blocks; any other non-zero exit is a failed, non-blocking hook.
 */
export const codex: Dialect = {
  name: "codex",
  agent: "codex",
  label: "Codex",
  events: {
    SessionStart: "SessionStart",
    UserPromptSubmit: "UserPromptSubmit",
    PostToolUse: "PostToolUse",
    Stop: "Stop",
    PreToolUse: null,
    PermissionRequest: null,
    PreCompact: null,
    PostCompact: null,
    SubagentStart: null,
    SubagentStop: null,
  },
  promptContext: true,
  build(type, payload, options = {}) {
    checkEventName(type, payload, this.events, this.label);
    const base = baseFields(
      {
        agent: "codex",
        sessionId: text(payload, "session_id"),
        sessionKey: "session_id",
        cwd: text(payload, "cwd"),
        transcriptPath: text(payload, "transcript_path"),
      },
      options,
    );
    const reply = text(payload, "last_assistant_message");
    const read: Read = {
      prompt: text(payload, "prompt"),
      toolName: text(payload, "tool_name"),
      toolUseId: text(payload, "tool_use_id"),
      toolInput: field(payload, "tool_input"),
      toolResponse: field(payload, "tool_response"),
      response: reply,
      reason: text(payload, "reason"),
      source: text(payload, "source"),
      model: text(payload, "model"),
    };
    const warnings =
      type === "Stop" && reply === undefined
        ? [
            "the Stop payload has no last_assistant_message; the turn is reported with an empty response",
          ]
        : [];
    return { event: assemble(type, base, read), warnings };
  },
  answer: (type, context) => claude.answer(type, context),
};
