import type { Malformed } from "./turns";

/**
 * Reading Claude Code transcripts (JSONL, one entry per line) and telling their user
 * entries apart. Only `user` and `assistant` entries carry the conversation; the rest
 * (summary, system, attachment, queue-operation, file-history-snapshot, ...) are read
 * for their timestamp alone. A user entry is a prompt only when a person typed it:
 * Claude Code also writes tool results, slash commands, their output and its own
 * notes as user entries.
 */

export type Block = {
  type?: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
};
export type Entry = {
  type?: string;
  uuid?: string;
  sessionId?: string;
  timestamp?: string;
  cwd?: string;
  isSidechain?: boolean;
  isMeta?: boolean;
  isCompactSummary?: boolean;
  isVisibleInTranscriptOnly?: boolean;
  /** The Claude Code version that wrote the entry. */
  version?: string;
  message?: { role?: string; content?: string | Block[]; usage?: Record<string, number> };
};

/** One entry and where it was read. `key` names it: its uuid, else file and line. */
export type Located = {
  file: string;
  line: number;
  key: string;
  session: string;
  time: number | null;
  entry: Entry;
};
export type { Malformed } from "./turns";
export type ParsedFile = { entries: Located[]; malformed: Malformed[]; lines: number };

/** The file's name without directory or `.jsonl`: the session of entries that carry no sessionId. */
export function fileStem(file: string): string {
  return file.replace(/^.*[\\/]/, "").replace(/\.jsonl$/, "");
}

function timeOf(timestamp: unknown): number | null {
  if (typeof timestamp !== "string") return null;
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * The entries of one transcript file, in file order. A UTF-8 byte order mark is
 * dropped; blank lines are skipped; a line that is not a JSON object, an object with
 * no `type` (not a transcript entry), or a user or assistant entry without
 * `message.content`, is reported with its line number.
 */
export function parseTranscript(file: string, text: string): ParsedFile {
  const entries: Located[] = [];
  const malformed: Malformed[] = [];
  const fallback = fileStem(file);
  const lines = text.replace(/^\uFEFF/, "").split("\n");
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (!raw.trim()) return;
    let entry: Entry;
    try {
      entry = JSON.parse(raw) as Entry;
    } catch {
      malformed.push({ file, line, reason: "not valid JSON" });
      return;
    }
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      malformed.push({ file, line, reason: "not a JSON object" });
      return;
    }
    const conversational = entry.type === "user" || entry.type === "assistant";
    if (
      conversational &&
      (!entry.message ||
        (typeof entry.message.content !== "string" && !Array.isArray(entry.message.content)))
    ) {
      malformed.push({
        file,
        line,
        reason: `${entry.type === "user" ? "a user" : "an assistant"} entry without message.content`,
      });
      return;
    }
    if (typeof entry.type !== "string" || !entry.type) {
      malformed.push({ file, line, reason: "not a transcript entry (it has no type)" });
      return;
    }
    // Entries of other types without a session (summaries, titles) belong to no session.
    if (!conversational && typeof entry.sessionId !== "string") return;
    const session =
      typeof entry.sessionId === "string" && entry.sessionId ? entry.sessionId : fallback;
    const key = typeof entry.uuid === "string" && entry.uuid ? entry.uuid : `${fallback}:${line}`;
    entries.push({ file, line, key, session, time: timeOf(entry.timestamp), entry });
  });
  return { entries, malformed, lines: lines.filter((l) => l.trim()).length };
}

/** The sessions a file holds entries of, as parseTranscript names them. */
export function sessionsOf(file: string, text: string): Set<string> {
  return new Set(parseTranscript(file, text).entries.map((e) => e.session));
}

export function textOf(content: string | Block[] | undefined): string {
  if (typeof content === "string") return content;
  return (content ?? [])
    .filter((b) => b.type === "text" && typeof b.text === "string")
    .map((b) => b.text)
    .join("\n");
}

export function toolResultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .map((c: Block) => (typeof c?.text === "string" ? c.text : JSON.stringify(c)))
      .join("\n");
  return JSON.stringify(content ?? "");
}

/** Slash commands that end Claude Code: a session whose transcript ends with one is over. */
export const EXIT_COMMANDS = ["/exit", "/quit"] as const;

/**
 * User text Claude Code writes itself: the local-command caveat, a command's output,
 * bash-mode input and output, hook output, reminders and notifications. Never a prompt.
 */
const GENERATED =
  /^(<local-command-caveat>|Caveat: The messages below were generated by the user while running local commands|<local-command-std(out|err)>|<bash-(stdout|stderr)>|<user-prompt-submit-hook>|<system-reminder>|<task-notification>)/;
/** What the user ran instead of writing to the agent: a slash command or a bash-mode (`!`) command. */
const COMMAND = /^<(command-(name|message|args)|bash-input)>/;
const INTERRUPT = /^\[Request interrupted by user/;

/**
 * What a user entry is, tool results aside:
 * - `prompt`: text a person wrote to the agent; it opens a turn.
 * - `command`: a slash or bash-mode command; it ends the turn before it and opens none
 *   (`name` is the slash command, e.g. `/exit`).
 * - `interrupt`: the person stopped the agent; it ends the turn.
 * - `note`: anything else (meta entries, compaction summaries, caveats, command
 *   output, tool-result carriers): it changes nothing.
 */
export type UserKind =
  | { kind: "prompt"; text: string }
  | { kind: "command"; name: string | null }
  | { kind: "interrupt" }
  | { kind: "note" };

export function classifyUser(entry: Entry): UserKind {
  const content = entry.message?.content;
  if (Array.isArray(content) && content.some((b) => b?.type === "tool_result"))
    return { kind: "note" };
  if (entry.isMeta || entry.isCompactSummary || entry.isVisibleInTranscriptOnly)
    return { kind: "note" };
  const text = textOf(content).trim();
  if (!text || GENERATED.test(text)) return { kind: "note" };
  if (COMMAND.test(text))
    return {
      kind: "command",
      name: /<command-name>\s*([^<\s]*)\s*<\/command-name>/.exec(text)?.[1] ?? null,
    };
  if (INTERRUPT.test(text)) return { kind: "interrupt" };
  return { kind: "prompt", text };
}
