import {
  classifyUser,
  EXIT_COMMANDS,
  parseTranscript,
  textOf,
  toolResultText,
  type Located,
} from "./entries";
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

export {
  DEFAULT_IDLE_MINUTES,
  type ConvertOptions,
  type Converted,
  type ConvertedSession,
  type TranscriptFile,
} from "./turns";

/**
 * Claude Code transcripts as agent events, the same events the hooks send (turns.ts
 * makes turns of the steps read here):
 *
 * - A session's entries are gathered from every file given (grouped by `sessionId`;
 *   a resumed session repeats entries, kept once by uuid: the earliest, see merge), each
 *   file in its own order, the files interleaved by timestamp.
 * - A prompt a person wrote opens a turn. Each tool_use with its tool_result is a
 *   PostToolUse. A slash command or an interrupt ends the turn; the agent's last text
 *   stops it.
 * - Subagent (sidechain) entries are skipped: they are the subagent's prompt and
 *   replies, not the person's or the main agent's, and the subagent's result reaches
 *   the main turn as its Task tool's result. What the agent does with no prompt of
 *   its own (after a slash command) is skipped too, never given to the turn before.
 * - The session ends (SessionEnd) only when its transcript ends with /exit or /quit,
 *   or nothing was written to it for `idleMinutes` before `now`.
 *
 * Event ids come from the entries' uuids, so importing the same files twice changes
 * nothing. Every event names the agent (`claude-code`) and the version that wrote its entry.
 */

/** Claude Code's context window, for context_utilization from a reply's token usage. */
export const CONTEXT_WINDOW_TOKENS = 200_000;

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

function utilization(usage: Record<string, number> | undefined): number | undefined {
  if (!usage) return undefined;
  const used =
    (usage.input_tokens ?? 0) +
    (usage.cache_read_input_tokens ?? 0) +
    (usage.cache_creation_input_tokens ?? 0);
  return shareOf(used, CONTEXT_WINDOW_TOKENS);
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

/** One session's merged entries as steps: only the main conversation's user and assistant entries make turns. */
function stepsOf(entries: Located[]): Step[] {
  const steps: Step[] = [];
  for (const { entry, key, time, file } of entries) {
    if ((entry.type !== "user" && entry.type !== "assistant") || entry.isSidechain) {
      steps.push({ kind: "time", time });
      continue;
    }
    const at = {
      key,
      time,
      version: typeof entry.version === "string" ? entry.version : undefined,
    };
    const content = entry.message?.content;
    const blocks = Array.isArray(content) ? content : [];
    if (entry.type === "assistant") {
      for (const b of blocks)
        if (b.type === "tool_use" && b.id && b.name)
          steps.push({ kind: "call", ...at, id: b.id, name: b.name, input: b.input });
      steps.push({
        kind: "reply",
        ...at,
        text: textOf(content),
        utilization: utilization(entry.message?.usage),
      });
      continue;
    }
    for (const b of blocks) {
      if (b.type !== "tool_result" || !b.tool_use_id) continue;
      const output = toolResultText(b.content);
      steps.push({
        kind: "result",
        ...at,
        id: b.tool_use_id,
        response: b.is_error ? `Error: ${output}` : output,
      });
    }
    const kind = classifyUser(entry);
    if (kind.kind === "prompt")
      steps.push({ kind: "prompt", ...at, text: kind.text, cwd: entry.cwd, file });
    else if (kind.kind === "interrupt") steps.push({ kind: "stop", ...at });
    else if (kind.kind === "command")
      steps.push({
        kind: "stop",
        ...at,
        exit: kind.name ? (EXIT_COMMANDS as readonly string[]).includes(kind.name) : undefined,
      });
    else steps.push({ kind: "note", ...at });
  }
  return steps;
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
    for (const e of parsed.entries) {
      if (!own.has(e.session)) own.set(e.session, []);
      own.get(e.session)!.push(e);
    }
    for (const [session, entries] of own) {
      if (!bySession.has(session)) bySession.set(session, []);
      bySession.get(session)!.push(entries);
    }
  }
  const events: Converted["events"] = [];
  const sessions: ConvertedSession[] = [];
  for (const [session, perFile] of bySession) {
    const steps = stepsOf(merge(perFile, malformed));
    const converted = stepsToEvents({ id: session, agent: "claude-code" }, steps, options, events);
    if (converted) sessions.push(converted);
  }
  return { sessions, events, malformed, lines };
}
