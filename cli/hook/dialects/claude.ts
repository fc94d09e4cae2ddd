import { HOOK_EVENTS, type HookEventName } from "../events";
import { buildEvent } from "../payload";
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
  build(type, payload, options) {
    const { event, warnings } = buildEvent(type, payload, options);
    return { event: { ...event, agent: "claude-code" }, warnings };
  },
  answer(type, context) {
    if (!context || (type !== "UserPromptSubmit" && type !== "SessionStart")) return "";
    return jsonLine({ hookSpecificOutput: { hookEventName: type, additionalContext: context } });
  },
};
