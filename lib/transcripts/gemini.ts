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
 * Gemini CLI session files (`~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl`;
 * before its JSONL recording, one `session-*.json` document) as agent events (turns.ts
 * makes the turns).
 *
 * A JSONL file starts with the session's metadata (`sessionId`, `projectHash`,
 * `startTime`, `lastUpdated`, `kind`), then appends each message record (`id`,
 * `timestamp`, `type`: user | gemini | info | error | warning, `content`, and for
 * gemini `toolCalls`, `thoughts`, `tokens`, `model`). A message is written again, under
 * its id, each time Gemini CLI adds to it (its tool calls, its token counts): the last
 * record counts, at the place of the first. `{"$set": ...}` updates the metadata;
 * its `messages` (a checkpoint after compressing or masking the history) add the
 * messages not seen before and change none already read, so what was compressed away
 * is still imported. `{"$rewindTo": id}` is ignored: the rewound turns happened, and an
 * earlier import may hold them already.
 *
 * - Prompts are the `user` messages a person wrote: `displayContent` (what was typed)
 *   where Gemini CLI kept one, else `content` without the files an @-reference added and
 *   without `<hook_context>` parts. Not prompts: tool results (functionResponse parts),
 *   Gemini CLI's `<session_context>`, and, as Gemini CLI itself reads them, text starting
 *   with `/` or `?` (commands; they end the turn, `/quit` the session). A compression
 *   summary (`<state_snapshot>`) ends the turn, so the model's acknowledgement of it is
 *   no turn's reply.
 * - A `gemini` message's text (thoughts left out) is a reply; its `tokens.input` over
 *   GEMINI_CONTEXT_WINDOW_TOKENS is context_utilization. Its tool calls that finished
 *   (status success, error or cancelled) are PostToolUse events; an error, a cancelled
 *   call, or a shell output stating a non-zero `Exit Code` is sent as `Error: ...`.
 * - A subagent's session (`kind: "subagent"`) is skipped, as Claude Code sidechains are.
 * - The files carry no Gemini CLI version, so the events carry none; the working
 *   directory is read from the `<session_context>` message where it names one.
 *
 * Format: packages/core/src/services/chatRecordingService.ts and chatRecordingTypes.ts
 * in github.com/google-gemini/gemini-cli.
 */

/** Gemini 2.5's input window, for context_utilization from a reply's `tokens.input`. */
export const GEMINI_CONTEXT_WINDOW_TOKENS = 1_048_576;

/** The message types Gemini CLI records. */
export const GEMINI_MESSAGE_TYPES = ["user", "gemini", "info", "error", "warning"] as const;
/** Tool call statuses of a call that finished; the others (scheduled, executing, ...) may still change. */
const FINISHED = new Set(["success", "error", "cancelled"]);
/** Commands that end Gemini CLI, should one be recorded. */
const EXIT = /^\/(quit|exit)\b/;
const FILES_ADDED = "\n--- Content from referenced files ---";

type Json = Record<string, unknown>;
type Part = {
  text?: string;
  thought?: boolean;
  functionResponse?: { id?: string; name?: string; response?: Json };
};
type ToolCall = {
  id?: string;
  name?: string;
  args?: unknown;
  result?: unknown;
  status?: string;
  timestamp?: string;
  resultDisplay?: unknown;
};
type Message = {
  id: string;
  timestamp?: string;
  type?: string;
  content?: unknown;
  displayContent?: unknown;
  toolCalls?: ToolCall[];
  tokens?: { input?: number } | null;
};
/** A session file read: its last stated metadata and its messages in the order first written. */
export type GeminiSession = {
  sessionId: string | null;
  kind: string | null;
  messages: Map<string, Message>;
  malformed: Malformed[];
  lines: number;
};

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isMessage = (value: unknown): value is Message =>
  isObject(value) && typeof value.id === "string" && value.id !== "";

/** Whether a parsed JSON value is a record of a Gemini CLI session file (metadata, message, `$set`, `$rewindTo`). */
export function isGeminiRecord(value: unknown): boolean {
  if (!isObject(value)) return false;
  if (typeof value.sessionId === "string" && typeof value.projectHash === "string") return true;
  if (isObject(value.$set) || typeof value.$rewindTo === "string") return true;
  return (
    isMessage(value) &&
    (GEMINI_MESSAGE_TYPES as readonly string[]).includes(value.type as string) &&
    "content" in value
  );
}

/** Whether a parsed JSON document is a whole Gemini CLI session (the `.json` files before JSONL). */
export function isGeminiDocument(value: unknown): boolean {
  return isObject(value) && typeof value.sessionId === "string" && Array.isArray(value.messages);
}

function parseJson(text: string): { value: unknown } | null {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return null;
  }
}

function timeOf(timestamp: unknown): number | null {
  if (typeof timestamp !== "string") return null;
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? null : ms;
}

/** Content (a string, a part, or a list of either) as parts. */
function partsOf(content: unknown): Part[] {
  const list = Array.isArray(content) ? content : content === undefined ? [] : [content];
  return list.flatMap((p: unknown): Part[] =>
    typeof p === "string" ? [{ text: p }] : isObject(p) ? [p as Part] : [],
  );
}

const textOf = (parts: Part[]) =>
  parts
    .filter((p) => typeof p.text === "string" && !p.thought)
    .map((p) => p.text)
    .join("");

/**
 * One session file read. A UTF-8 byte order mark is dropped and blank lines skipped; a
 * line that is not JSON, or JSON that is no record of a session file, is reported with
 * its number.
 */
export function readGeminiSession(file: string, text: string): GeminiSession {
  const body = text.replace(/^\uFEFF/, "");
  const session: GeminiSession = {
    sessionId: null,
    kind: null,
    messages: new Map(),
    malformed: [],
    lines: 0,
  };
  const meta = (record: Json) => {
    if (typeof record.sessionId === "string") session.sessionId = record.sessionId;
    if (typeof record.kind === "string") session.kind = record.kind;
  };
  // A checkpoint's copies of messages already read (masked tool outputs, say) change nothing.
  const addNew = (messages: unknown) => {
    if (!Array.isArray(messages)) return;
    for (const m of messages)
      if (isMessage(m) && !session.messages.has(m.id)) session.messages.set(m.id, m);
  };

  const whole = body.trimStart().startsWith("{") ? parseJson(body) : null;
  if (whole && isGeminiDocument(whole.value)) {
    const document = whole.value as Json;
    meta(document);
    addNew(document.messages);
    session.lines = body.split("\n").filter((l) => l.trim()).length;
    return session;
  }
  for (const [index, raw] of body.split("\n").entries()) {
    const line = index + 1;
    if (!raw.trim()) continue;
    session.lines++;
    const parsed = parseJson(raw);
    if (!parsed) {
      session.malformed.push({ file, line, reason: "not valid JSON" });
      continue;
    }
    const record = parsed.value;
    if (!isGeminiRecord(record) || !isObject(record)) {
      session.malformed.push({ file, line, reason: "not a record of a Gemini CLI session" });
      continue;
    }
    if (typeof record.$rewindTo === "string") continue;
    if (isObject(record.$set)) {
      meta(record.$set);
      addNew(record.$set.messages);
    } else if (isMessage(record)) {
      // Map.set keeps the place of the id's first record.
      session.messages.set(record.id, record);
    } else {
      meta(record);
      addNew(record.messages);
    }
  }
  return session;
}

/** The working directory a `<session_context>` message names. */
function cwdOf(context: string): string | undefined {
  return (
    /\*\*Workspace Directories:\*\*\n\s*- (.+)/.exec(context)?.[1]?.trim() ??
    /I'm currently working in the directory: (.+)/.exec(context)?.[1]?.trim()
  );
}

/** A user message: a prompt, a command (ends the turn), or a note. */
function userStep(
  message: Message,
  at: { key: string; time: number | null },
  cwd: string | undefined,
  file: string,
): Step {
  const content = partsOf(message.content);
  if (content.some((p) => p.functionResponse)) return { kind: "note", ...at };
  const shown = message.displayContent === undefined ? content : partsOf(message.displayContent);
  const typed = shown.filter((p) => !p.text?.trimStart().startsWith("<hook_context>"));
  let text = textOf(typed);
  const added = text.indexOf(FILES_ADDED);
  if (added >= 0) text = text.slice(0, added);
  text = text.trim();
  if (!text || text.startsWith("<session_context>")) return { kind: "note", ...at };
  if (text.startsWith("/") || text.startsWith("?"))
    return { kind: "stop", ...at, exit: EXIT.test(text) };
  if (text.includes("<state_snapshot>")) return { kind: "stop", ...at };
  return { kind: "prompt", ...at, text, cwd, file };
}

/** A finished tool call's result as PostToolUse sends it: its text, behind `Error: ` when it failed. */
export function geminiToolResponse(call: ToolCall): string {
  const texts = partsOf(call.result).map((p) => {
    const response = p.functionResponse?.response;
    if (response) {
      const value = response.output ?? response.error ?? response;
      return typeof value === "string" ? value : JSON.stringify(value);
    }
    return p.text ?? "";
  });
  let text = texts.join("\n");
  if (!text && typeof call.resultDisplay === "string") text = call.resultDisplay;
  const inner = /^<untrusted_context>\n([\s\S]*)\n<\/untrusted_context>$/.exec(text);
  if (inner) text = inner[1]!;
  if (call.status === "error" || call.status === "cancelled")
    return `Error: ${text || call.status}`;
  const code = /^Exit Code: (-?\d+)\s*$/m.exec(text);
  if (code && Number(code[1]) !== 0) return `Error: exit code ${code[1]}\n${text}`;
  return text;
}

function stepsOf(session: GeminiSession, file: string): Step[] {
  const steps: Step[] = [];
  let cwd: string | undefined;
  for (const message of session.messages.values()) {
    const time = timeOf(message.timestamp);
    const at = { key: message.id, time };
    if (message.type === "user") {
      const context = textOf(partsOf(message.content)).trimStart();
      if (context.startsWith("<session_context>")) cwd = cwdOf(context) ?? cwd;
      steps.push(userStep(message, at, cwd, file));
      continue;
    }
    if (message.type !== "gemini") {
      steps.push({ kind: "note", ...at });
      continue;
    }
    const input = message.tokens?.input;
    steps.push({
      kind: "reply",
      ...at,
      text: textOf(partsOf(message.content)),
      utilization:
        typeof input === "number" ? shareOf(input, GEMINI_CONTEXT_WINDOW_TOKENS) : undefined,
    });
    for (const call of message.toolCalls ?? []) {
      if (!call.id || !call.name || !FINISHED.has(call.status ?? "")) continue;
      const callAt = { key: `${message.id}/${call.id}`, time: timeOf(call.timestamp) ?? time };
      steps.push(
        { kind: "call", ...callAt, id: call.id, name: call.name, input: call.args ?? {} },
        { kind: "result", ...callAt, id: call.id, response: geminiToolResponse(call) },
      );
    }
  }
  return steps;
}

/** The session a Gemini CLI file is of. */
export function geminiSessionsOf(file: string, text: string): Set<string> {
  const { sessionId } = readGeminiSession(file, text);
  return new Set(sessionId ? [sessionId] : []);
}

/**
 * Converts Gemini CLI session files into agent events (see above). Files of one session
 * (a `.json` session and the `.jsonl` Gemini CLI moved it to when it was resumed) are
 * read together, in the order given: a message's last record counts.
 */
export function geminiToEvents(files: TranscriptFile[], options: ConvertOptions): Converted {
  const malformed: Malformed[] = [];
  const bySession = new Map<string, { file: string; session: GeminiSession }>();
  let lines = 0;
  for (const { file, text } of files) {
    const session = readGeminiSession(file, text);
    malformed.push(...session.malformed);
    lines += session.lines;
    if (!session.sessionId) {
      malformed.push({ file, line: 0, reason: "no sessionId: not a Gemini CLI session" });
      continue;
    }
    if (session.kind === "subagent") continue;
    const known = bySession.get(session.sessionId);
    if (!known) {
      bySession.set(session.sessionId, { file, session });
      continue;
    }
    for (const [id, message] of session.messages) known.session.messages.set(id, message);
    // Prompts name the file Gemini CLI writes the session to now: the last given.
    known.file = file;
  }
  const events: Converted["events"] = [];
  const sessions: ConvertedSession[] = [];
  for (const [id, { file, session }] of bySession) {
    const converted = stepsToEvents(
      { id, agent: "gemini-cli" },
      stepsOf(session, file),
      options,
      events,
    );
    if (converted) sessions.push(converted);
  }
  return { sessions, events, malformed, lines };
}
