import type { HookEventName } from "../events";
import { assemble, baseFields, checkEventName, field, text, type Read } from "./fields";
import { jsonLine, type Dialect } from "./types";

/** Gemini CLI's names for the events Charter takes. */
const GEMINI_NAMES: Record<HookEventName, string> = {
  SessionStart: "SessionStart",
  UserPromptSubmit: "BeforeAgent",
  PostToolUse: "AfterTool",
  Stop: "AfterAgent",
  SessionEnd: "SessionEnd",
};

/**
 * Gemini CLI (https://geminicli.com/docs/hooks/reference; payloads as in
 * packages/core/src/hooks/types.ts of github.com/google-gemini/gemini-cli). Its own event
 * names: BeforeAgent is the prompt (`prompt`), AfterTool a tool call (`tool_name`,
 * `tool_input`, `tool_response`; no call id), AfterAgent the end of the turn with the reply
 * (`prompt_response`). Context goes in `hookSpecificOutput.additionalContext` for
 * BeforeAgent (this turn) and SessionStart. Gemini CLI reads every exit code but 0 and 1 as
 * a block (exit 2 on AfterAgent even forces a retry), and when stdout is empty it shows
 * stderr to the user as a message: so the hook always answers JSON, `{}` when it has
 * nothing to add. SessionEnd is best effort: Gemini CLI does not wait for it.
 */
export const gemini: Dialect = {
  name: "gemini",
  agent: "gemini-cli",
  label: "Gemini CLI",
  events: {
    ...Object.fromEntries(Object.entries(GEMINI_NAMES).map(([charter, own]) => [own, charter])),
    BeforeTool: null,
    BeforeModel: null,
    AfterModel: null,
    BeforeToolSelection: null,
    PreCompress: null,
    Notification: null,
  } as Record<string, HookEventName | null>,
  promptContext: true,
  build(type, payload, options = {}) {
    checkEventName(type, payload, this.events, this.label);
    const base = baseFields(
      {
        agent: "gemini-cli",
        sessionId: text(payload, "session_id"),
        sessionKey: "session_id",
        cwd: text(payload, "cwd"),
        transcriptPath: text(payload, "transcript_path"),
      },
      options,
    );
    const reply = text(payload, "prompt_response");
    const read: Read = {
      prompt: text(payload, "prompt"),
      toolName: text(payload, "tool_name"),
      toolInput: field(payload, "tool_input"),
      toolResponse: field(payload, "tool_response"),
      response: reply,
      reason: text(payload, "reason"),
      source: text(payload, "source"),
    };
    const warnings =
      type === "Stop" && reply === undefined
        ? [
            "the AfterAgent payload has no prompt_response; the turn is reported with an empty response",
          ]
        : [];
    return { event: assemble(type, base, read), warnings };
  },
  answer(type, context) {
    if (context && (type === "UserPromptSubmit" || type === "SessionStart"))
      return jsonLine({
        hookSpecificOutput: { hookEventName: GEMINI_NAMES[type], additionalContext: context },
      });
    return jsonLine({});
  },
};
