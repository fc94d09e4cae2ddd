import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { CONTEXT_WINDOW_TOKENS } from "./events";

const CHUNK_BYTES = 256 * 1024;
/** A Stop hook reads at most this much of the transcript's tail (transcripts grow to many MB). */
const MAX_SCAN_BYTES = 16 * 1024 * 1024;

type Block = { type?: unknown; text?: unknown };
type Usage = {
  input_tokens?: unknown;
  cache_read_input_tokens?: unknown;
  cache_creation_input_tokens?: unknown;
};
type Entry = {
  type?: unknown;
  isSidechain?: unknown;
  isMeta?: unknown;
  message?: { id?: unknown; role?: unknown; content?: unknown; usage?: Usage };
};

export type LastReply = {
  /** Text of the last assistant message: its text blocks, in order. */
  text: string;
  /** Share of the context window the message's request used, when the transcript records usage. */
  contextUtilization?: number;
  /** Why `text` is empty although a reply was expected, for one stderr line. */
  problem?: string;
};

/** Yields the file's lines from the last to the first, reading backwards in chunks. */
function* linesFromEnd(file: string): Generator<string> {
  const fd = openSync(file, "r");
  try {
    let position = fstatSync(fd).size;
    const stop = Math.max(0, position - MAX_SCAN_BYTES);
    // The start of the chunk read last, up to its first newline: the end of a line that began earlier.
    let partial = Buffer.alloc(0);
    while (position > stop) {
      const size = Math.min(CHUNK_BYTES, position - stop);
      position -= size;
      const chunk = Buffer.alloc(size);
      readSync(fd, chunk, 0, size, position);
      const data = Buffer.concat([chunk, partial]);
      let end = data.length;
      for (let i = data.length - 1; i >= 0; i--) {
        if (data[i] !== 0x0a) continue;
        if (end > i + 1) yield data.subarray(i + 1, end).toString("utf8");
        end = i;
      }
      partial = data.subarray(0, end);
    }
    if (stop === 0 && partial.length) yield partial.toString("utf8");
  } finally {
    closeSync(fd);
  }
}

function parse(line: string): Entry | undefined {
  try {
    const entry: unknown = JSON.parse(line);
    return entry && typeof entry === "object" ? (entry as Entry) : undefined;
  } catch {
    return undefined;
  }
}

function textOf(content: unknown): string[] {
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  return (content as Block[])
    .filter((b) => b?.type === "text" && typeof b.text === "string")
    .map((b) => b.text as string);
}

/** A user entry that is a prompt, not only tool results: it opens a new turn. */
function isPrompt(entry: Entry): boolean {
  if (entry.isMeta === true) return false;
  const content = entry.message?.content;
  if (typeof content === "string") return true;
  return Array.isArray(content) && (content as Block[]).some((b) => b?.type !== "tool_result");
}

function tokens(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

/** Input tokens of the request (fresh + cached) over the context window, capped at 1. */
export function contextUtilization(usage: Usage | undefined): number | undefined {
  if (!usage || typeof usage !== "object") return undefined;
  const used =
    tokens(usage.input_tokens) +
    tokens(usage.cache_read_input_tokens) +
    tokens(usage.cache_creation_input_tokens);
  if (used === 0) return undefined;
  return Math.min(1, used / CONTEXT_WINDOW_TOKENS);
}

/**
 * The last assistant message of a Claude Code transcript (JSONL). Claude Code writes one
 * line per content block, all lines of a message sharing `message.id`, so the lines of
 * the last message are gathered and their text blocks joined, one per line. A user
 * prompt newer than any assistant line means the reply is not in the file yet: the
 * text is then "" (rather than the previous turn's reply).
 */
export function readLastReply(file: string): LastReply {
  const lines: Entry[] = [];
  let messageId: unknown;
  try {
    for (const line of linesFromEnd(file)) {
      const entry = parse(line);
      if (!entry || entry.isSidechain === true) continue;
      if (entry.type === "assistant" && entry.message) {
        if (lines.length === 0) messageId = entry.message.id;
        else if (messageId === undefined || entry.message.id !== messageId) break;
        lines.push(entry);
      } else if (entry.type === "user") {
        if (lines.length > 0) break;
        if (isPrompt(entry))
          return {
            text: "",
            problem: `the transcript ${file} has no reply to the last prompt yet`,
          };
      }
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      text: "",
      problem:
        code === "ENOENT"
          ? `the transcript ${file} does not exist`
          : `cannot read the transcript ${file}: ${(error as Error).message}`,
    };
  }
  if (lines.length === 0)
    return { text: "", problem: `the transcript ${file} has no assistant message` };
  const ordered = lines.reverse();
  const text = ordered.flatMap((entry) => textOf(entry.message?.content)).join("\n");
  const withUsage = [...ordered].reverse().find((entry) => entry.message?.usage);
  const utilization = contextUtilization(withUsage?.message?.usage);
  return { text, ...(utilization !== undefined ? { contextUtilization: utilization } : {}) };
}
