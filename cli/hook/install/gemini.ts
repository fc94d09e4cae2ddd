import { HOOK_TIMEOUT_SECONDS } from "../settings";
import { scopedPath } from "./agent";
import { jsonAgent } from "./json-agent";

/**
 * Gemini CLI: the `hooks` object of `~/.gemini/settings.json` or
 * `<project>/.gemini/settings.json` (JSON with comments), matcher groups under each event,
 * `timeout` in milliseconds. Hooks are on unless `hooksConfig.enabled` is false. Every entry
 * is named "charter", so `/hooks disable charter` turns them all off at once.
 * https://geminicli.com/docs/hooks/reference
 */
export const GEMINI_EVENTS = [
  "SessionStart",
  "BeforeAgent",
  "AfterTool",
  "AfterAgent",
  "SessionEnd",
] as const;

export const gemini = jsonAgent({
  name: "gemini",
  label: "Gemini CLI",
  docs: "https://geminicli.com/docs/hooks/reference",
  settingsPath: scopedPath(".gemini", "settings.json"),
  comments: true,
  grouped: true,
  events: GEMINI_EVENTS,
  group: (event) => (event === "AfterTool" ? { matcher: "*" } : {}),
  entry: (command) => ({
    name: "charter",
    type: "command",
    command,
    timeout: HOOK_TIMEOUT_SECONDS * 1000,
  }),
  notes: [
    "Gemini CLI asks before it runs project hooks that are new or changed. With environment redaction on, it hides CHARTER_API_KEY from hooks: put the key in the hook's config file instead.",
  ],
});
