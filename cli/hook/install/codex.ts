import { HOOK_TIMEOUT_SECONDS } from "../settings";
import { scopedPath } from "./agent";
import { jsonAgent } from "./json-agent";

/**
 * Codex CLI: `~/.codex/hooks.json` or `<repo>/.codex/hooks.json`, the same shape as Claude
 * Code's `hooks` (matcher groups; `timeout` in seconds; an omitted matcher, "" or "*"
 * matches everything). Hooks are on by default since Codex 0.124 (`[features] hooks`,
 * formerly `codex_hooks`, need not be set), so config.toml is left alone; but Codex runs a
 * new or changed hook only once the user has trusted it in /hooks.
 * https://developers.openai.com/codex/hooks
 */
export const CODEX_EVENTS = ["SessionStart", "UserPromptSubmit", "PostToolUse", "Stop"] as const;

export const codex = jsonAgent({
  name: "codex",
  label: "Codex CLI",
  docs: "https://developers.openai.com/codex/hooks",
  settingsPath: scopedPath(".codex", "hooks.json"),
  comments: false,
  grouped: true,
  events: CODEX_EVENTS,
  group: (event) => (event === "PostToolUse" ? { matcher: "*" } : {}),
  entry: (command) => ({ type: "command", command, timeout: HOOK_TIMEOUT_SECONDS }),
  notes: [
    "Codex runs a new or changed hook only once you trust it: open /hooks in Codex and trust Charter's (again after a reinstall that changed the command). A project's .codex/ hooks load only when Codex trusts the project.",
  ],
});
