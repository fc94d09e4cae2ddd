import { HOOK_TIMEOUT_SECONDS } from "../settings";
import { scopedPath } from "./agent";
import { jsonAgent } from "./json-agent";

/**
 * Cursor: `~/.cursor/hooks.json` or `<project>/.cursor/hooks.json`,
 * `{"version": 1, "hooks": {event: [{command, timeout}]}}` with no matcher groups,
 * `timeout` in seconds. A relative command would resolve against the file's directory
 * (project hooks) or ~/.cursor (user hooks); Charter's are absolute.
 * https://cursor.com/docs/agent/hooks
 */
export const CURSOR_EVENTS = [
  "sessionStart",
  "beforeSubmitPrompt",
  "postToolUse",
  "afterAgentResponse",
  "sessionEnd",
] as const;

export const cursor = jsonAgent({
  name: "cursor",
  label: "Cursor",
  docs: "https://cursor.com/docs/agent/hooks",
  settingsPath: scopedPath(".cursor", "hooks.json"),
  comments: false,
  grouped: false,
  events: CURSOR_EVENTS,
  entry: (command) => ({ command, timeout: HOOK_TIMEOUT_SECONDS }),
  required: { version: 1 },
  notes: [
    "Cursor loads hooks when it starts (restart it; Settings > Hooks lists them), and runs a project's hooks only in a trusted workspace.",
  ],
});
