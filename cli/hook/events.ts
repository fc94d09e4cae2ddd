import type { AgentEventInput } from "@/lib/schemas/events";

/**
 * The hook's copy of the event contract's names and limits. The hook is bundled
 * without zod (startup time), so it cannot import lib/schemas/events.ts at run
 * time; events.test.ts checks these against the schema so the two cannot drift.
 */
export const HOOK_EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PostToolUse",
  "Stop",
  "SessionEnd",
] as const satisfies readonly AgentEventInput["type"][];
export type HookEventName = (typeof HOOK_EVENTS)[number];

/**
 * The events `charter hooks install` registers with Claude Code. SessionStart is left out:
 * Claude Code takes the principles that apply with each prompt, which beats the whole
 * list of hard constraints up front; registered by hand, it records the session's agent
 * and passes that list on.
 */
export const CLAUDE_INSTALLED_EVENTS = [
  "UserPromptSubmit",
  "PostToolUse",
  "Stop",
  "SessionEnd",
] as const satisfies readonly HookEventName[];

/** Longest string the server keeps inside a tool's input or output (MAX_TOOL_OUTPUT). */
export const HOOK_MAX_TOOL_OUTPUT = 20_000;
/** The schema's maximum lengths, which the hook clips to instead of having the event refused. */
export const HOOK_LIMITS = {
  prompt: 200_000,
  response: 500_000,
  reason: 200,
  tool_name: 200,
  tool_use_id: 200,
  session_id: 200,
  path: 4096,
  agent: 64,
  agent_version: 100,
  source: 100,
  model: 200,
} as const;

/** Context window the Stop event's context_utilization is measured against. */
export const CONTEXT_WINDOW_TOKENS = 200_000;

export function isHookEvent(name: string): name is HookEventName {
  return (HOOK_EVENTS as readonly string[]).includes(name);
}
