import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { REPO_ROOT } from "@/lib/paths";
import { agentEventSchema, type AgentEvent } from "@/lib/schemas/events";
import { DEFAULT_IDLE_MINUTES, newestEntryTime, recentShiftMs } from "@/lib/transcripts/convert";
import { sessionsOf, type Malformed } from "@/lib/transcripts/entries";
import type { Converted } from "@/lib/transcripts/turns";
import {
  detectTranscript,
  TRANSCRIPT_READERS,
  type TranscriptAgent,
} from "@/lib/transcripts/formats";
import { ingestEvents } from "./ingest";

/** Events sent to the database per transaction while importing. */
export const IMPORT_BATCH = 500;
/** The demo sessions shipped with Charter, in Claude Code's transcript format. */
export const DEMO_DIR = path.join(REPO_ROOT, "demo", "transcripts");

export type ImportOptions = {
  /** Minutes without a new entry after which a session with no /exit is closed (DEFAULT_IDLE_MINUTES). */
  idleMinutes?: number;
  /** The time idleness is measured to; now unless a test says otherwise. */
  now?: Date;
  /** After each file: `agent` is the one that wrote it, null for a file skipped as no transcript. */
  onProgress?: (done: number, total: number, file: string, agent: TranscriptAgent | null) => void;
  /**
   * Move the transcripts' times so the newest falls in the last day (recentShiftMs),
   * keeping their order and spacing. Defaults to true for the demo (every file under
   * DEMO_DIR), whose fixed dates would otherwise age; real transcripts keep their times.
   */
  datedToNow?: boolean;
};
/**
 * `files` counts the transcripts read, `perFile` names each one's agent (in the order the
 * files were given), `skipped` lists the files that are no agent's transcript. `open`:
 * sessions left open (no exit, written to within the idle time); importing again later
 * closes them.
 */
export type ImportSummary = {
  files: number;
  sessions: number;
  open: number;
  accepted: number;
  duplicates: number;
  malformed: Malformed[];
  perFile: { file: string; agent: TranscriptAgent }[];
  skipped: string[];
};

/** The ids of the shipped demo sessions, read from their transcripts. */
export async function demoSessionIds(): Promise<string[]> {
  const ids = new Set<string>();
  for (const file of await transcriptFiles(DEMO_DIR))
    for (const id of sessionsOf(file, await readFile(file, "utf8"))) ids.add(id);
  return [...ids].sort();
}

/**
 * The candidate transcripts at a path: the file itself, or every .jsonl and .json file
 * below a directory (Claude Code's projects, Codex's sessions/YYYY/MM/DD, Gemini CLI's
 * tmp/<project>/chats). Which agent wrote each is read from its content on import.
 */
export async function transcriptFiles(target: string): Promise<string[]> {
  const info = await stat(target);
  if (info.isFile()) return [target];
  const entries = await readdir(target, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && /\.jsonl?$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

function isDemo(files: string[]): boolean {
  return (
    files.length > 0 &&
    files.every((file) => {
      const relative = path.relative(DEMO_DIR, path.resolve(file));
      return !path.isAbsolute(relative) && relative.split(path.sep)[0] !== "..";
    })
  );
}

/** One shift for all the files, so sessions keep their order and spacing across files. */
async function shiftToNow(files: string[], now: Date, idleMinutes: number): Promise<number> {
  const newest = newestEntryTime(
    await Promise.all(files.map(async (file) => ({ file, text: await readFile(file, "utf8") }))),
  );
  return newest === null ? 0 : recentShiftMs(newest, now, idleMinutes);
}

type Detected = { file: string; agent: TranscriptAgent };

/**
 * The transcripts in groups that share no session with another group: a session resumed
 * into a second file, or a subagent's file, is converted with the rest of it. A group is
 * one agent's files (sessions are grouped by agent and id). Files of no agent are left
 * out (`skipped`). Each file is read once here and again when its group is
 * converted, so only one group is held in memory at a time.
 */
async function groupBySession(
  files: string[],
): Promise<{ groups: Detected[][]; skipped: Set<string> }> {
  const detected: Detected[] = [];
  const skipped = new Set<string>();
  const owner = new Map<string, number>();
  const parent: number[] = [];
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
  for (const file of files) {
    const text = await readFile(file, "utf8");
    const agent = detectTranscript(text);
    if (!agent) {
      skipped.add(file);
      continue;
    }
    const i = detected.push({ file, agent }) - 1;
    parent.push(i);
    for (const session of TRANSCRIPT_READERS[agent].sessionsOf(file, text)) {
      // Each agent's session ids are its own: files of two agents never share a group.
      const key = `${agent}:${session}`;
      const j = owner.get(key);
      if (j === undefined) owner.set(key, i);
      else parent[root(i)] = root(j);
    }
  }
  const groups = new Map<number, Detected[]>();
  for (const [i, d] of detected.entries()) {
    const r = root(i);
    if (!groups.has(r)) groups.set(r, []);
    groups.get(r)!.push(d);
  }
  return { groups: [...groups.values()], skipped };
}

/**
 * Imports Claude Code, Codex and Gemini CLI transcripts through the same path as live
 * events: sessions, turns and tool calls, scored, each naming its agent. Which agent wrote
 * a file is read from its content; a file of none is skipped. Sessions are assembled
 * across all the files given; one is closed only when its transcript says the agent
 * exited or it was idle for `idleMinutes`. Importing the same files again changes
 * nothing; importing them after they grew adds what is new and scores the grown turns
 * and sessions again.
 */
export async function importTranscripts(
  files: string[],
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const now = options.now ?? new Date();
  const idleMinutes = options.idleMinutes ?? DEFAULT_IDLE_MINUTES;
  const convertOptions = {
    now,
    idleMinutes,
    shiftMs: (options.datedToNow ?? isDemo(files)) ? await shiftToNow(files, now, idleMinutes) : 0,
  };
  const summary: ImportSummary = {
    files: 0,
    sessions: 0,
    open: 0,
    accepted: 0,
    duplicates: 0,
    malformed: [],
    perFile: [],
    skipped: [],
  };
  let done = 0;
  const { groups, skipped } = await groupBySession(files);
  for (const file of files.filter((f) => skipped.has(f))) {
    summary.skipped.push(file);
    options.onProgress?.(++done, files.length, file, null);
  }
  for (const group of groups) {
    const texts = await Promise.all(
      group.map(async ({ file }) => ({ file, text: await readFile(file, "utf8") })),
    );
    const reader = TRANSCRIPT_READERS[group[0]!.agent];
    await importConverted(reader.toEvents(texts, convertOptions), group[0]!.file, summary);
    for (const { file, agent } of group) {
      summary.files++;
      summary.perFile.push({ file, agent });
      options.onProgress?.(++done, files.length, file, agent);
    }
  }
  const order = new Map(files.map((file, i) => [file, i]));
  summary.perFile.sort((a, b) => order.get(a.file)! - order.get(b.file)!);
  return summary;
}

/** Validates one group's events and ingests them in batches as the import source; an invalid event is reported against its file (else the group's first). */
async function importConverted(
  converted: Converted,
  firstFile: string,
  summary: ImportSummary,
): Promise<void> {
  summary.malformed.push(...converted.malformed);
  const events = converted.events.flatMap((e): AgentEvent[] => {
    const parsed = agentEventSchema.safeParse(e);
    if (parsed.success) return [parsed.data];
    const file = "transcript_path" in e && e.transcript_path ? e.transcript_path : firstFile;
    summary.malformed.push({
      file,
      line: 0,
      reason: `event ${e.id}: ${parsed.error.issues[0]?.message ?? "invalid"}`,
    });
    return [];
  });
  for (let start = 0; start < events.length; start += IMPORT_BATCH) {
    const result = await ingestEvents(events.slice(start, start + IMPORT_BATCH), {
      source: "import",
    });
    summary.accepted += result.accepted;
    summary.duplicates += result.duplicates;
  }
  summary.sessions += converted.sessions.length;
  summary.open += converted.sessions.filter((s) => !s.ended).length;
}
