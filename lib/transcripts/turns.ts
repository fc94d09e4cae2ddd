import type { KnownAgent } from "@/lib/schemas/agents";
import type { AgentEventInput } from "@/lib/schemas/events";

/**
 * Turns from a session's entries, whichever agent wrote them. Each transcript format
 * (convert.ts for Claude Code, codex.ts, gemini.ts) reads its files into Steps, in the
 * order the session happened; this module makes the events the hooks would have sent:
 *
 * - A prompt a person wrote opens a turn (UserPromptSubmit, `context_delivered: false`:
 *   the agent never saw Charter's answer).
 * - A tool call made while a turn is open, once its result is there, is a PostToolUse.
 *   A call with no result yet is left for a later import.
 * - The turn stops (Stop) with the agent's last text when the next prompt or a `stop`
 *   step (a command, an interrupt) comes, or the steps end; a turn the agent never
 *   answered in words gets no Stop and is not scored. Replies and calls outside a turn
 *   (after a command, before the first prompt) belong to no turn and are dropped.
 * - The session ends (SessionEnd) when its last `stop` step said the agent exited and no
 *   prompt came after it, or nothing was written for `idleMinutes` before `now`.
 *
 * Event ids are `import:<session>:<kind>:<key>`, the key naming the step's entry, so the
 * same steps give the same ids on every import. A Stop's key is the turn's last step
 * and a SessionEnd's the session's last, so a turn or session that grew since the last
 * import is stopped or ended again and scored again from what the server now holds.
 */

/** Minutes without a new entry after which a session that did not exit is taken as ended. */
export const DEFAULT_IDLE_MINUTES = 30;

export type TranscriptFile = { file: string; text: string };
/** `shiftMs` moves every entry's time by that much (the demo's, see recentShiftMs); 0 or absent keeps them. */
export type ConvertOptions = { now: Date; idleMinutes: number; shiftMs?: number };
/** A session found in the transcripts: `ended` says why it was closed, or null when it is still open. */
export type ConvertedSession = { id: string; ended: "exit" | "idle" | null; lastAt: string | null };
export type Malformed = { file: string; line: number; reason: string };
export type Converted = {
  sessions: ConvertedSession[];
  events: AgentEventInput[];
  malformed: Malformed[];
  lines: number;
};

/** `time` in epoch ms, null when the entry has none; `version` the agent's version where the entry tells it. */
type At = { key: string; time: number | null; version?: string };

/**
 * One thing a transcript records, reduced to what makes turns:
 * - `prompt`: text a person wrote to the agent.
 * - `reply`: the agent spoke; `text` may be empty (a reply of tool calls alone, a token
 *   count) and `utilization` is the share of the context window in use, where known.
 * - `call` / `result`: a tool call and its output (`response`, as PostToolUse sends it),
 *   paired by `id`.
 * - `stop`: a command or an interrupt; it ends the turn and opens none. `exit` says
 *   whether the command ended the agent (undefined: it says nothing about that).
 * - `note`: an entry of the conversation that changes no turn (injected context, meta
 *   entries); it still counts as the session's latest entry.
 * - `time`: an entry outside the conversation (a subagent's, a summary): it counts only
 *   for how long the session has been idle.
 */
export type Step =
  | (At & { kind: "prompt"; text: string; cwd?: string; file: string })
  | (At & { kind: "reply"; text: string; utilization?: number })
  | (At & { kind: "call"; id: string; name: string; input: unknown })
  | (At & { kind: "result"; id: string; response: unknown })
  | (At & { kind: "stop"; exit?: boolean })
  | (At & { kind: "note" })
  | { kind: "time"; time: number | null };

/** The session the steps are of: its id, the agent that wrote it, and its version when the session states it once. */
export type StepSession = { id: string; agent: KnownAgent; version?: string };

const iso = (time: number | null) => (time === null ? undefined : new Date(time).toISOString());

/** The share of a context window that `used` tokens fill, to 4 places, or undefined when nothing is known. */
export function shareOf(used: number, window: number): number | undefined {
  if (!(used > 0) || !(window > 0)) return undefined;
  return Math.min(1, Math.round((used / window) * 10_000) / 10_000);
}

type Turn = { reply: string; utilization?: number; lastKey: string; lastAt?: string };

/**
 * Appends one session's events (see above) to `events`; its summary, or null when the
 * steps hold no entry of the conversation. Every event names the agent, and its
 * version as last stated by the steps up to it (or the session's).
 */
export function stepsToEvents(
  session: StepSession,
  steps: readonly Step[],
  options: ConvertOptions,
  events: AgentEventInput[],
): ConvertedSession | null {
  const shift = options.shiftMs ?? 0;
  const pending = new Map<string, { name: string; input: unknown }>();
  let version = session.version;
  let turn: Turn | null = null;
  let exited = false;
  let lastKey: string | null = null;
  let lastTime: number | null = null;

  const id = (kind: string, key: string) => `import:${session.id}:${kind}:${key}`;
  const base = () => ({
    session_id: session.id,
    agent: session.agent,
    ...(version ? { agent_version: version } : {}),
  });
  const stop = () => {
    if (turn?.reply) {
      events.push({
        type: "Stop",
        id: id("stop", turn.lastKey),
        ...base(),
        at: turn.lastAt,
        response: turn.reply,
        context_utilization: turn.utilization,
      });
    }
    turn = null;
  };
  const touch = (key: string, at: string | undefined) => {
    if (!turn) return;
    turn.lastKey = key;
    turn.lastAt = at ?? turn.lastAt;
  };

  for (const step of steps) {
    const time = step.time === null ? null : step.time + shift;
    if (time !== null && (lastTime === null || time > lastTime)) lastTime = time;
    if (step.kind === "time") continue;
    if (step.version) version = step.version;
    lastKey = step.key;
    const at = iso(time);
    switch (step.kind) {
      case "prompt":
        stop();
        exited = false;
        events.push({
          type: "UserPromptSubmit",
          id: id("prompt", step.key),
          ...base(),
          at,
          cwd: step.cwd,
          transcript_path: step.file,
          prompt: step.text,
          context_delivered: false,
        });
        turn = { reply: "", lastKey: step.key, lastAt: at };
        break;
      case "reply": {
        if (!turn) break;
        const text = step.text.trim();
        if (text) turn.reply = text;
        if (step.utilization !== undefined) turn.utilization = step.utilization;
        touch(step.key, at);
        break;
      }
      case "call":
        if (!turn) break;
        pending.set(step.id, { name: step.name, input: step.input });
        touch(step.key, at);
        break;
      case "result": {
        const call = pending.get(step.id);
        if (!call) break;
        pending.delete(step.id);
        events.push({
          type: "PostToolUse",
          id: id("tool", step.id),
          ...base(),
          at,
          tool_name: call.name,
          tool_use_id: step.id,
          tool_input: call.input,
          tool_response: step.response,
        });
        touch(step.key, at);
        break;
      }
      case "stop":
        stop();
        if (step.exit !== undefined) exited = step.exit;
        break;
      case "note":
        break;
    }
  }
  stop();
  if (lastKey === null) return null;

  const idle =
    lastTime !== null && options.now.getTime() - lastTime >= options.idleMinutes * 60_000;
  const ended = exited ? "exit" : idle ? "idle" : null;
  if (ended)
    events.push({
      type: "SessionEnd",
      id: id("end", lastKey),
      ...base(),
      at: iso(lastTime),
      reason: ended,
    });
  return { id: session.id, ended, lastAt: iso(lastTime) ?? null };
}
