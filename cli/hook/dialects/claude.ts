import { HOOK_EVENTS, type HookEventName } from "../events";
import { readLastReply } from "../transcript";
import { assemble, baseFields, checkEventName, field, text } from "./fields";
import { jsonLine, type Dialect } from "./types";

/**
 * Claude Code (https://code.claude.com/docs/en/hooks): the events and payloads Charter's
 * contract was drawn from, so its names are Charter's own. Context goes in
 * `hookSpecificOutput.additionalContext`, per prompt (UserPromptSubmit) and at SessionStart.
 * Exit 2 blocks; the hook never uses it. Claude Code sends no version in its payloads.
 */
export const claude: Dialect = {
  name: "claude",
  agent: "claude-code",
  label: "Claude Code",
  events: Object.fromEntries(HOOK_EVENTS.map((name) => [name, name])) as Record<
    HookEventName,
    HookEventName
  >,
  promptContext: true,
  build(type, payload, options = {}) {
    // Named for another event (a SubagentStop sent to `charter hook Stop`): nothing is sent.
    checkEventName(type, payload, this.events, this.label);
    const transcriptPath = text(payload, "transcript_path");
    const base = baseFields(
      {
        agent: this.agent,
        sessionId: text(payload, "session_id"),
        sessionKey: "session_id",
        cwd: text(payload, "cwd"),
        transcriptPath,
      },
      options,
    );
    const read = {
      prompt: text(payload, "prompt"),
      toolName: text(payload, "tool_name"),
      toolUseId: text(payload, "tool_use_id"),
      toolInput: field(payload, "tool_input"),
      toolResponse: field(payload, "tool_response"),
      reason: text(payload, "reason"),
      source: text(payload, "source"),
      model: text(payload, "model"),
    };
    if (type !== "Stop") return { event: assemble(type, base, read), warnings: [] };

    // The transcript gives the context use, and the reply where the payload has none: newer
    // Claude Code versions put it in the payload, where it cannot lag behind the transcript.
    const reply = transcriptPath
      ? (options.readReply ?? readLastReply)(transcriptPath)
      : { text: "", problem: "the hook payload has no transcript_path" };
    const fromPayload = text(payload, "last_assistant_message");
    const event = assemble(type, base, { ...read, response: fromPayload ?? reply.text });
    const warnings =
      fromPayload === undefined && reply.problem
        ? [`${reply.problem}; the turn is reported with an empty response`]
        : [];
    return {
      event: {
        ...event,
        ...(reply.contextUtilization !== undefined
          ? { context_utilization: reply.contextUtilization }
          : {}),
      },
      warnings,
    };
  },
  answer(type, context) {
    if (!context || (type !== "UserPromptSubmit" && type !== "SessionStart")) return "";
    return jsonLine({ hookSpecificOutput: { hookEventName: type, additionalContext: context } });
  },
};
