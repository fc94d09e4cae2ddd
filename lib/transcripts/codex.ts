import { codexToolResponse, parseJson } from "./codex-output";
import { fileStem } from "./entries";
import {
  shareOf,
  stepsToEvents,
  type ConvertOptions,
  type Converted,
  type ConvertedSession,
  type Malformed,
  type Step,
  type TranscriptFile,
} from "./turns";

/**
 * Codex CLI rollout files (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`),
 * one `{timestamp, type, payload}` line per item Codex recorded, as agent events
 * (turns.ts makes the turns). A file is one session: its first `session_meta` names it
 * (`id`) and the CLI version (`cli_version`); a resumed session appends to its file, so
 * a line's number names it for good (keys `L<line>`).
 *
 * - Prompts are the `response_item` messages of role `user` a person wrote. Codex also
 *   writes its own context as user messages (AGENTS.md, `<environment_context>`, skills,
 *   notifications): those are notes, as are `developer` messages. A `!` shell command
 *   (`<user_shell_command>`) and an interrupt (`event_msg` `turn_aborted`) end the turn.
 *   The `event_msg` `user_message` repeating a prompt is not read: newer rollouts no
 *   longer write it, and the response items are always there.
 * - The agent's `assistant` messages are its replies; the last of a turn is the Stop's
 *   response. `event_msg` `token_count` gives context_utilization: the last request's
 *   input tokens over the model's context window, as the rollout states both.
 * - Tool calls (`function_call`, `custom_tool_call` such as apply_patch,
 *   `local_shell_call`) pair with their `*_output` by `call_id`. An output that reports a
 *   non-zero exit code, or "aborted" (the call was interrupted), is sent as
 *   `Error: ...` so the call counts as failed. A `web_search_call` is a call with its status.
 * - A subagent's rollout (`session_meta.source.subagent`) is skipped: its prompts are the
 *   main agent's instructions, and its result reaches the main session as a tool output.
 *
 * Format: codex-rs/protocol/src/protocol.rs (RolloutLine, RolloutItem, SessionMeta,
 * TurnContextItem, EventMsg) and models.rs (ResponseItem) in github.com/openai/codex.
 */

/** The `type`s of a rollout line. */
export const ROLLOUT_TYPES = [
  "session_meta",
  "response_item",
  "event_msg",
  "turn_context",
  "compacted",
] as const;

/**
 * Openings of the user messages Codex writes itself (codex-rs core/src/context:
 * contextual user fragments, and the older `<user_instructions>`): never prompts.
 */
const INJECTED = [
  "# agents.md instructions for ",
  "<user_instructions>",
  "<agents_instructions>",
  "<environment_context>",
  "<skill>",
  "<subagent_notification>",
  "<multiagent_context>",
  "<codex_internal_context",
  "<goal_context>",
  "<recommended_plugins>",
  "<agent_message_board_notification>",
  "<hook_prompt",
];
/** What the person did instead of writing to the agent: a `!` shell command, or stopping the turn. */
const ENDS_TURN = ["<user_shell_command>", "<turn_aborted>"];
/** The text items Codex puts around an attached image. */
const IMAGE_TAG = /^<\/?(local_)?image\b[^>]*>$/i;

type Payload = Record<string, unknown>;
type CodexSession = { id: string; version?: string; subagent: boolean };
export type Rollout = {
  session: CodexSession;
  steps: Step[];
  malformed: Malformed[];
  lines: number;
};

const UUID_TAIL = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

const isObject = (value: unknown): value is Payload =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined =>
  typeof value === "string" && value ? value : undefined;

/** Whether a parsed JSON value is a rollout line: `{timestamp, type, payload}` with a known type. */
export function isRolloutLine(value: unknown): boolean {
  return (
    isObject(value) &&
    (ROLLOUT_TYPES as readonly string[]).includes(value.type as string) &&
    isObject(value.payload)
  );
}

function timeOf(timestamp: unknown): number | null {
  if (typeof timestamp !== "string") return null;
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? null : ms;
}

function sessionOf(payload: Payload, file: string): CodexSession {
  const source = payload.source;
  return {
    id: str(payload.id) ?? fallbackId(file),
    version: str(payload.cli_version),
    subagent: isObject(source) && "subagent" in source,
  };
}

/** A session with no session_meta line takes the uuid of its file's name. */
function fallbackId(file: string): string {
  return UUID_TAIL.exec(file)?.[1] ?? fileStem(file);
}

function textItems(content: unknown, type: string): string[] {
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  return content
    .filter((c): c is Payload => isObject(c) && c.type === type && typeof c.text === "string")
    .map((c) => c.text as string);
}

function opens(text: string, openings: readonly string[]): boolean {
  const start = text.trimStart().toLowerCase();
  return openings.some((o) => start.startsWith(o));
}

/** A user message: a prompt, a turn's end, or a note (context Codex injected, an image alone). */
function userStep(
  content: unknown,
  at: { key: string; time: number | null },
  cwd: string | undefined,
  file: string,
): Step {
  const texts = textItems(content, "input_text");
  if (texts.some((t) => opens(t, ENDS_TURN))) return { kind: "stop", ...at };
  if (texts.some((t) => opens(t, INJECTED))) return { kind: "note", ...at };
  const text = texts
    .filter((t) => !IMAGE_TAG.test(t.trim()))
    .join("\n")
    .trim();
  return text ? { kind: "prompt", ...at, text, cwd, file } : { kind: "note", ...at };
}

/** The steps of one response item (`payload` of a `response_item` line). */
function responseSteps(
  item: Payload,
  at: { key: string; time: number | null },
  cwd: string | undefined,
  file: string,
): Step[] {
  switch (item.type) {
    case "message":
      if (item.role === "user") return [userStep(item.content, at, cwd, file)];
      if (item.role === "assistant")
        return [{ kind: "reply", ...at, text: textItems(item.content, "output_text").join("\n") }];
      return [{ kind: "note", ...at }];
    case "function_call": {
      const id = str(item.call_id);
      const name = str(item.name);
      if (!id || !name) break;
      const args = item.arguments;
      return [
        {
          kind: "call",
          ...at,
          id,
          name,
          input: typeof args === "string" ? parseJson(args) : args,
        },
      ];
    }
    case "custom_tool_call": {
      const id = str(item.call_id);
      const name = str(item.name);
      if (!id || !name) break;
      return [{ kind: "call", ...at, id, name, input: item.input }];
    }
    case "local_shell_call": {
      const id = str(item.call_id) ?? str(item.id);
      if (!id) break;
      return [{ kind: "call", ...at, id, name: "local_shell", input: item.action }];
    }
    case "function_call_output":
    case "custom_tool_call_output": {
      const id = str(item.call_id);
      if (!id) break;
      return [{ kind: "result", ...at, id, response: codexToolResponse(item.output) }];
    }
    case "web_search_call": {
      const id = str(item.id) ?? `web_search:${at.key}`;
      const status = str(item.status) ?? "completed";
      return [
        { kind: "call", ...at, id, name: "web_search", input: item.action ?? {} },
        {
          kind: "result",
          ...at,
          id,
          response: status === "completed" ? status : `Error: web search ${status}`,
        },
      ];
    }
  }
  return [{ kind: "note", ...at }];
}

/** context_utilization from a token_count event: the last request's input over the context window. */
function tokenShare(payload: Payload): number | undefined {
  const info = payload.info;
  if (!isObject(info) || !isObject(info.last_token_usage)) return undefined;
  const input = info.last_token_usage.input_tokens;
  const window = info.model_context_window;
  return typeof input === "number" && typeof window === "number"
    ? shareOf(input, window)
    : undefined;
}

/**
 * One rollout file read into steps, in file order. A UTF-8 byte order mark is dropped
 * and blank lines skipped; a line that is not a JSON object, or an object that is not
 * a rollout line (no known `type` with an object `payload`), is reported with its number.
 */
export function readRollout(file: string, text: string): Rollout {
  const steps: Step[] = [];
  const malformed: Malformed[] = [];
  let session: CodexSession | null = null;
  let cwd: string | undefined;
  let count = 0;
  for (const [index, raw] of text
    .replace(/^\uFEFF/, "")
    .split("\n")
    .entries()) {
    const line = index + 1;
    if (!raw.trim()) continue;
    count++;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      malformed.push({ file, line, reason: "not valid JSON" });
      continue;
    }
    if (!isObject(value)) {
      malformed.push({ file, line, reason: "not a JSON object" });
      continue;
    }
    if (!isRolloutLine(value)) {
      malformed.push({
        file,
        line,
        reason: "not a rollout line (it has no known type with a payload)",
      });
      continue;
    }
    const payload = value.payload as Payload;
    const at = { key: `L${line}`, time: timeOf(value.timestamp) };
    switch (value.type) {
      case "session_meta":
        // A forked session copies its parent's lines, session_meta included: the first one names the file's session.
        if (!session) {
          session = sessionOf(payload, file);
          cwd = str(payload.cwd) ?? cwd;
        }
        steps.push({ kind: "note", ...at });
        continue;
      case "turn_context":
        cwd = str(payload.cwd) ?? cwd;
        steps.push({ kind: "note", ...at });
        continue;
      case "response_item":
        steps.push(...responseSteps(payload, at, cwd, file));
        continue;
      case "event_msg": {
        if (payload.type === "turn_aborted") {
          steps.push({ kind: "stop", ...at });
          continue;
        }
        const utilization = payload.type === "token_count" ? tokenShare(payload) : undefined;
        steps.push(
          utilization === undefined
            ? { kind: "note", ...at }
            : { kind: "reply", ...at, text: "", utilization },
        );
        continue;
      }
      default:
        steps.push({ kind: "note", ...at });
    }
  }
  return {
    session: session ?? { id: fallbackId(file), subagent: false },
    steps,
    malformed,
    lines: count,
  };
}

/** The session a rollout file is of: its first session_meta's id (else its name's uuid). */
export function codexSessionsOf(file: string, text: string): Set<string> {
  for (const raw of text.replace(/^\uFEFF/, "").split("\n")) {
    if (!raw.includes('"session_meta"')) continue;
    const value = parseJson(raw);
    if (isObject(value) && value.type === "session_meta" && isObject(value.payload))
      return new Set([sessionOf(value.payload, file).id]);
  }
  return new Set([fallbackId(file)]);
}

/**
 * Converts Codex rollout files into agent events, one session per file (see above).
 * Two files of one session (a copy) are not merged: the one with more lines is read,
 * and the other reported.
 */
export function codexToEvents(files: TranscriptFile[], options: ConvertOptions): Converted {
  const malformed: Malformed[] = [];
  const chosen = new Map<string, { file: string; rollout: Rollout }>();
  let lines = 0;
  for (const { file, text } of files) {
    const rollout = readRollout(file, text);
    malformed.push(...rollout.malformed);
    lines += rollout.lines;
    if (rollout.session.subagent) continue;
    const id = rollout.session.id;
    const other = chosen.get(id);
    if (!other) {
      chosen.set(id, { file, rollout });
      continue;
    }
    const [kept, dropped] =
      rollout.lines > other.rollout.lines ? [{ file, rollout }, other] : [other, { file, rollout }];
    chosen.set(id, kept);
    malformed.push({
      file: dropped.file,
      line: 0,
      reason: `holds session ${id} as ${kept.file} does, which is longer and is read instead`,
    });
  }
  const events: Converted["events"] = [];
  const sessions: ConvertedSession[] = [];
  for (const { rollout } of chosen.values()) {
    const { id, version } = rollout.session;
    const converted = stepsToEvents(
      { id, agent: "codex", version },
      rollout.steps,
      options,
      events,
    );
    if (converted) sessions.push(converted);
  }
  return { sessions, events, malformed, lines };
}
