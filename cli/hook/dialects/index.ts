import { HOOK_EVENTS, isHookEvent, type HookEventName } from "../events";
import { claude } from "./claude";
import { codex } from "./codex";
import { cursor } from "./cursor";
import type { Payload } from "./fields";
import { gemini } from "./gemini";
import { DIALECT_NAMES, type Dialect, type DialectName } from "./types";

export { DIALECT_NAMES, type Dialect, type DialectName } from "./types";

export const DIALECTS: Readonly<Record<DialectName, Dialect>> = { claude, codex, gemini, cursor };

export function isDialectName(name: string): name is DialectName {
  return (DIALECT_NAMES as readonly string[]).includes(name);
}

/** Event names only Gemini CLI uses (Claude Code and Codex share the others, Notification included). */
const GEMINI_ONLY = new Set([
  "BeforeAgent",
  "AfterAgent",
  "BeforeTool",
  "AfterTool",
  "BeforeModel",
  "AfterModel",
  "BeforeToolSelection",
  "PreCompress",
]);

/**
 * The agent that wrote a payload, where the payload makes it certain: Cursor's
 * `cursor_version` or its camelCase event names (every other agent's are PascalCase),
 * Gemini CLI's own event names or the `timestamp` on all its payloads (Claude Code's and
 * Codex's have none), Codex's `turn_id` (its extension to Claude Code's payloads, on every
 * event but SessionStart). Anything else is Claude Code's, as `charter hook` always read it.
 */
export function detectDialect(payload: Payload): Dialect {
  const named = payload.hook_event_name;
  if (
    typeof payload.cursor_version === "string" ||
    (typeof named === "string" && /^[a-z]/.test(named))
  )
    return cursor;
  if (
    (typeof named === "string" && GEMINI_ONLY.has(named)) ||
    typeof payload.timestamp === "string"
  )
    return gemini;
  if (typeof payload.turn_id === "string") return codex;
  return claude;
}

/** What `charter hook [--agent a] <event>` does with its event argument. */
export type EventCall =
  /** Reports `type`; with no dialect, the payload tells which agent sent it (detectDialect). */
  | { kind: "take"; type: HookEventName; dialect?: Dialect }
  /** An event Charter does not take: one line on stderr, and the agent's neutral answer. */
  | { kind: "ignore"; line: string; dialect?: Dialect };

const charterTakes = `Charter takes ${HOOK_EVENTS.join(", ")}`;

function takenBy(dialect: Dialect): string {
  return Object.entries(dialect.events)
    .filter(([, type]) => type !== null)
    .map(([name]) => name)
    .join(", ");
}

/**
 * The event an argument names: Charter's own name (as Claude Code's), or the agent's own
 * name for it (`BeforeAgent`, `beforeSubmitPrompt`). Without --agent, an agent's own name
 * that is a Charter event tells the dialect; every other name is ignored as it always was.
 */
export function resolveEvent(name: string, dialect?: Dialect): EventCall {
  if (dialect) {
    if (Object.hasOwn(dialect.events, name)) {
      const type = dialect.events[name];
      if (type) return { kind: "take", type, dialect };
      return {
        kind: "ignore",
        line: `ignoring ${dialect.label}'s hook event "${name}": Charter takes ${takenBy(dialect)}`,
        dialect,
      };
    }
    if (isHookEvent(name)) return { kind: "take", type: name, dialect };
    return {
      kind: "ignore",
      line: `ignoring the hook event "${name}": ${dialect.label}'s events Charter takes are ${takenBy(dialect)}`,
      dialect,
    };
  }
  if (isHookEvent(name)) return { kind: "take", type: name };
  for (const other of [gemini, cursor]) {
    const type = Object.hasOwn(other.events, name) ? other.events[name] : null;
    if (type) return { kind: "take", type, dialect: other };
  }
  return { kind: "ignore", line: `ignoring the hook event "${name}": ${charterTakes}` };
}
