/**
 * A session's header facts (where its events came from, which agent, which project)
 * derived from its stored row. Pure: used by the Sessions table and the session page.
 */

import { agentLabel } from "@/lib/schemas/agents";

export const SESSION_ORIGINS = ["hook", "import", "api", "dashboard", "otel"] as const;
export type SessionOrigin = (typeof SESSION_ORIGINS)[number];

/**
 * What a session that does not name its agent is shown as: before events named their
 * agent, hooks and imports came only from Claude Code; anything else is not known.
 */
export const CLAUDE_CODE = "Claude Code";
export const OTHER_AGENT = "other agent";

/** First prompts are cut to this many characters in the Sessions table (the full prompt is on the session page). */
export const FIRST_PROMPT_CHARS = 120;

/**
 * Where a session's events came from. The stored source says how they arrived:
 * `import` (transcripts), `dashboard` (a signed-in person), `hook` (older rows), or
 * `api` for any API key, Charter's hook included, `otel` for OpenTelemetry traces. The
 * hook always sends the agent's transcript_path and a bare REST client has none, so an
 * `api` session with a transcript path came from the hook.
 */
export function sessionOrigin(source: string, transcriptPath: string | null): SessionOrigin {
  if (source === "api") return transcriptPath ? "hook" : "api";
  return (SESSION_ORIGINS as readonly string[]).includes(source)
    ? (source as SessionOrigin)
    : "api";
}

/**
 * The agent behind a session: the one its events named, with its version where told; a
 * session from before events named their agent is Claude Code when it came through the
 * hook or a transcript (Claude Code was the only one those spoke).
 */
export function agentOf(
  origin: SessionOrigin,
  agent: string | null = null,
  version: string | null = null,
): string {
  if (agent) return version ? `${agentLabel(agent)} ${version}` : agentLabel(agent);
  return origin === "hook" || origin === "import" ? CLAUDE_CODE : OTHER_AGENT;
}

/** The project a session worked in: the working directory's last folder, with the full path kept for a tooltip. */
export function projectOf(cwd: string | null): { name: string; path: string } | null {
  const path = cwd?.trim();
  if (!path) return null;
  const parts = path.split(/[\\/]+/).filter(Boolean);
  return { name: parts.at(-1) ?? path, path };
}

/** Text on one line, cut to `max` characters with an ellipsis. */
export function clipLine(text: string, max = FIRST_PROMPT_CHARS): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}
