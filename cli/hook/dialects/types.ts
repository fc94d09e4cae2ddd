import type { KnownAgent } from "@/lib/schemas/agents";
import type { HookEventName } from "../events";
import type { BuildOptions, Built } from "../payload";
import type { Payload } from "./fields";

/** The names `charter hook --agent` takes. */
export const DIALECT_NAMES = ["claude", "codex", "gemini", "cursor"] as const;
export type DialectName = (typeof DIALECT_NAMES)[number];

/**
 * One agent's hook protocol: its event names, how its payload becomes a Charter event, and
 * what it reads on stdout. Every dialect keeps the hook's guarantees (run.ts): the agent is
 * never blocked, so the hook exits 0 (1 only for a broken command line), never 2.
 */
export type Dialect = {
  name: DialectName;
  /** The `agent` every event carries (lib/schemas/agents.ts). */
  agent: KnownAgent;
  /** The agent as people know it, for messages. */
  label: string;
  /**
   * The agent's own hook event names and the Charter event each reports; null for an event
   * of the agent's that Charter knows and does not take (said on stderr, nothing sent).
   */
  events: Readonly<Record<string, HookEventName | null>>;
  /** Whether the agent adds the server's answer to a prompt (false: the prompt is recorded as undelivered). */
  promptContext: boolean;
  /** The payload as an event of lib/schemas/events.ts; throws PayloadError when it is not one for `type`. */
  build(type: HookEventName, payload: Payload, options?: BuildOptions): Built;
  /**
   * What the hook prints on stdout for `type` (undefined: an event Charter does not take):
   * the server's context in the agent's shape, or, with no context (none, or not delivered
   * in time), the agent's neutral answer ("" for none). A whole JSON document and a newline,
   * since some agents parse stdout and take anything else as a message or as context.
   */
  answer(type: HookEventName | undefined, context: string | undefined): string;
};

/** A JSON document on one line, as the hook prints it. */
export const jsonLine = (value: unknown) => `${JSON.stringify(value)}\n`;
