import type { AgentEventInput } from "@/lib/schemas/events";
import {
  classifyUser,
  EXIT_COMMANDS,
  parseTranscript,
  textOf,
  toolResultText,
  type Located,
  type Malformed,
} from "./entries";

/**
 * Claude Code transcripts as agent events, the same events the hooks send:
 *
 * - A session's entries are gathered from every file given (grouped by `sessionId`;
 *   a resumed session repeats entries, kept once by uuid: the earliest, see merge), each
 *   file in its own order, the files interleaved by timestamp.
 * - A prompt a person wrote opens a turn (UserPromptSubmit, `context_delivered:
 *   false`: the agent never saw Charter's answer). Each tool_use with its tool_result
 *   is a PostToolUse. The turn stops (Stop) with the agent's last text when the next
 *   prompt, a slash command or an interrupt comes, or the entries end; a turn the
 *   agent never answered in words gets no Stop and is not scored.
 * - Subagent (sidechain) entries are skipped: they are the subagent's prompt and
 *   replies, not the person's or the main agent's, and the subagent's result reaches
 *   the main turn as its Task tool's result. What the agent does with no prompt of
 *   its own (after a slash command) is skipped too, never given to the turn before.
 * - The session ends (SessionEnd) only when its transcript ends with /exit or /quit,
 *   or nothing was written to it for `idleMinutes` before `now`.
 *
 * Event ids come from the transcript, so importing the same files twice changes
 * nothing. Stop and SessionEnd ids also name the last entry they cover, so a turn or
 * session that grew since the last import is stopped or ended again, and the server
 * scores it again from what it now holds.
 */

/** Minutes without a new entry after which a session with no /exit is taken as ended. */
export const DEFAULT_IDLE_MINUTES = 30;

/** Claude Code's context window, for context_utilization from a reply's token usage. */
export const CONTEXT_WINDOW_TOKENS = 200_000;

export type TranscriptFile = { file: string; text: string };
/** `shiftMs` moves every entry's time by that much (the demo's, see recentShiftMs); 0 or absent keeps them. */
export type ConvertOptions = { now: Date; idleMinutes: number; shiftMs?: number };
/** A session found in the transcripts: `ended` says why it was closed, or null when it is still open. */
export type ConvertedSession = { id: string; ended: "exit" | "idle" | null; lastAt: string | null };
export type Converted = {
  sessions: ConvertedSession[];
  events: AgentEventInput[];
  malformed: Malformed[];
  lines: number;
};

const DAY_MS = 86_400_000;
/** Transcripts whose newest entry is at most this many days old keep their own times when dated to now. */
export const RECENT_DAYS = 7;

/**
 * How far to move transcripts whose newest entry is at `newest` so they look recent
 * at `now`: whole days, so each entry keeps its time of day and the entries their order
 * and spacing, with the newest landing in the day before `now` less `idleMinutes` (so a
 * session without /exit is over). Transcripts already from the last RECENT_DAYS days
 * (and idle) keep their own times: 0. Used for the demo, whose files are fixed.
 */
export function recentShiftMs(newest: number, now: Date, idleMinutes: number): number {
  const latest = now.getTime() - idleMinutes * 60_000;
  if (newest <= latest && newest > now.getTime() - RECENT_DAYS * DAY_MS) return 0;
  return Math.floor((latest - newest) / DAY_MS) * DAY_MS;
}

/** The newest entry time across transcript files, or null when none has a timestamp. */
export function newestEntryTime(files: TranscriptFile[]): number | null {
  let newest: number | null = null;
  for (const { file, text } of files) {
    for (const e of parseTranscript(file, text).entries)
      if (e.time !== null && (newest === null || e.time > newest)) newest = e.time;
  }
  return newest;
}

type Turn = { reply: string; usage?: Record<string, number>; lastKey: string; lastAt?: string };

const iso = (time: number | null) => (time === null ? undefined : new Date(time).toISOString());

function utilization(usage: Record<string, number> | undefined): number | undefined {
  if (!usage) return undefined;
  const used =
    (usage.input_tokens ?? 0) +
    (usage.cache_read_input_tokens ?? 0) +
    (usage.cache_creation_input_tokens ?? 0);
  return used > 0
    ? Math.min(1, Math.round((used / CONTEXT_WINDOW_TOKENS) * 10_000) / 10_000)
    : undefined;
}

/**
 * One session's entries: each file's in file order, merged across files by time (an
 * entry without a timestamp takes the one before it in its file). An entry whose uuid
 * was already seen in the session is dropped: the earliest wins (on equal times, the
 * file given first). A resumed session repeats its entries word for word; a repeat that
 * differs (another tool wrote the same uuid) is reported in `malformed`, naming the
 * entry kept, so nobody wonders which one counted.
 */
function merge(perFile: Located[][], malformed: Malformed[]): Located[] {
  const queues = perFile.map((entries) => {
    let carried = -Infinity;
    return { next: 0, items: entries.map((e) => ({ e, at: (carried = e.time ?? carried) })) };
  });
  const seen = new Map<string, Located>();
  const out: Located[] = [];
  for (;;) {
    // The earliest head; on a tie the file given first.
    let pick: (typeof queues)[number] | undefined;
    for (const q of queues)
      if (q.next < q.items.length && (!pick || q.items[q.next]!.at < pick.items[pick.next]!.at))
        pick = q;
    if (!pick) return out;
    const { e } = pick.items[pick.next++]!;
    if (typeof e.entry.uuid === "string" && e.entry.uuid) {
      const kept = seen.get(e.entry.uuid);
      if (kept) {
        if (JSON.stringify(kept.entry) !== JSON.stringify(e.entry))
          malformed.push({
            file: e.file,
            line: e.line,
            reason: `repeats the uuid ${e.entry.uuid} of ${kept.file}:${kept.line} with other content; the earlier entry is kept`,
          });
        continue;
      }
      seen.set(e.entry.uuid, e);
    }
    out.push(e);
  }
}

function convertSession(
  session: string,
  entries: Located[],
  options: ConvertOptions,
  events: AgentEventInput[],
): ConvertedSession | null {
  const pending = new Map<string, { name: string; input: unknown }>();
  let turn: Turn | null = null;
  let exited = false;
  let lastMain: Located | null = null;
  let lastTime: number | null = null;

  const stop = () => {
    if (turn?.reply) {
      events.push({
        type: "Stop",
        id: `import:${session}:stop:${turn.lastKey}`,
        session_id: session,
        at: turn.lastAt,
        response: turn.reply,
        context_utilization: utilization(turn.usage),
      });
    }
    turn = null;
  };

  for (const located of entries) {
    const { entry, key } = located;
    if (located.time !== null && (lastTime === null || located.time > lastTime))
      lastTime = located.time;
    if ((entry.type !== "user" && entry.type !== "assistant") || entry.isSidechain) continue;
    lastMain = located;
    const at = iso(located.time);
    const content = entry.message?.content;
    const blocks = Array.isArray(content) ? content : [];

    if (entry.type === "assistant") {
      if (!turn) continue;
      for (const b of blocks)
        if (b.type === "tool_use" && b.id && b.name)
          pending.set(b.id, { name: b.name, input: b.input });
      const reply = textOf(content).trim();
      if (reply) turn.reply = reply;
      if (entry.message?.usage) turn.usage = entry.message.usage;
      turn.lastKey = key;
      turn.lastAt = at ?? turn.lastAt;
      continue;
    }

    for (const b of blocks) {
      const use =
        b.type === "tool_result" && b.tool_use_id ? pending.get(b.tool_use_id) : undefined;
      if (!use || !b.tool_use_id) continue;
      pending.delete(b.tool_use_id);
      const output = toolResultText(b.content);
      events.push({
        type: "PostToolUse",
        id: `import:${session}:tool:${b.tool_use_id}`,
        session_id: session,
        at,
        tool_name: use.name,
        tool_use_id: b.tool_use_id,
        tool_input: use.input,
        tool_response: b.is_error ? `Error: ${output}` : output,
      });
      if (turn) {
        turn.lastKey = key;
        turn.lastAt = at ?? turn.lastAt;
      }
    }
    const kind = classifyUser(entry);
    if (kind.kind === "prompt") {
      stop();
      exited = false;
      events.push({
        type: "UserPromptSubmit",
        id: `import:${session}:prompt:${key}`,
        session_id: session,
        at,
        cwd: entry.cwd,
        transcript_path: located.file,
        prompt: kind.text,
        context_delivered: false,
      });
      turn = { reply: "", lastKey: key, lastAt: at };
    } else if (kind.kind === "command" || kind.kind === "interrupt") {
      stop();
      if (kind.kind === "command" && kind.name)
        exited = (EXIT_COMMANDS as readonly string[]).includes(kind.name);
    }
  }
  stop();
  if (!lastMain) return null;

  const idle =
    lastTime !== null && options.now.getTime() - lastTime >= options.idleMinutes * 60_000;
  const ended = exited ? "exit" : idle ? "idle" : null;
  if (ended)
    events.push({
      type: "SessionEnd",
      id: `import:${session}:end:${lastMain.key}`,
      session_id: session,
      at: iso(lastTime),
      reason: ended,
    });
  return { id: session, ended, lastAt: iso(lastTime) ?? null };
}

/**
 * Converts transcript files into agent events, session by session (see above).
 * `now` and `idleMinutes` decide which sessions without /exit are over.
 */
export function transcriptsToEvents(files: TranscriptFile[], options: ConvertOptions): Converted {
  const malformed: Malformed[] = [];
  const bySession = new Map<string, Located[][]>();
  let lines = 0;
  for (const { file, text } of files) {
    const parsed = parseTranscript(file, text);
    malformed.push(...parsed.malformed);
    lines += parsed.lines;
    const own = new Map<string, Located[]>();
    const shift = options.shiftMs ?? 0;
    for (const parsedEntry of parsed.entries) {
      const e =
        shift && parsedEntry.time !== null
          ? { ...parsedEntry, time: parsedEntry.time + shift }
          : parsedEntry;
      if (!own.has(e.session)) own.set(e.session, []);
      own.get(e.session)!.push(e);
    }
    for (const [session, entries] of own) {
      if (!bySession.has(session)) bySession.set(session, []);
      bySession.get(session)!.push(entries);
    }
  }
  const events: AgentEventInput[] = [];
  const sessions: ConvertedSession[] = [];
  for (const [session, perFile] of bySession) {
    const converted = convertSession(session, merge(perFile, malformed), options, events);
    if (converted) sessions.push(converted);
  }
  return { sessions, events, malformed, lines };
}
