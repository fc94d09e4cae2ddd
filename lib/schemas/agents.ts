import { z } from "zod";

/**
 * The coding agents Charter speaks to by name. An event's `agent` may name another one
 * (any lower-case slug): a framework reporting through OpenTelemetry names itself.
 */
export const KNOWN_AGENTS = ["claude-code", "codex", "gemini-cli", "cursor"] as const;
export type KnownAgent = (typeof KNOWN_AGENTS)[number];

/** An agent filter's value for sessions whose events named no agent. */
export const UNKNOWN_AGENT = "unknown";

/** What an `agent` may be: a lower-case name, as a filter in a URL takes it. */
export const AGENT_SLUG = /^[a-z0-9][a-z0-9._-]*$/;

const LABELS: Record<KnownAgent, string> = {
  "claude-code": "Claude Code",
  codex: "Codex",
  "gemini-cli": "Gemini CLI",
  cursor: "Cursor",
};

/** The name people know an agent by; an unknown agent is shown as it named itself. */
export function agentLabel(agent: string | null | undefined): string {
  if (!agent) return "unknown";
  return (LABELS as Record<string, string>)[agent] ?? agent;
}

/** An agent filter in a URL: an agent's name, or UNKNOWN_AGENT for sessions that named none. */
export const agentFilterSchema = z
  .string()
  .max(64)
  .regex(AGENT_SLUG, "must be an agent's lower-case name, or unknown");
