import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { REPO_ROOT } from "@/lib/paths";
import { agentEventSchema, type AgentEvent } from "@/lib/schemas/events";
import {
  DEFAULT_IDLE_MINUTES,
  newestEntryTime,
  recentShiftMs,
  transcriptsToEvents,
} from "@/lib/transcripts/convert";
import { sessionsOf, type Malformed } from "@/lib/transcripts/entries";
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
  onProgress?: (done: number, total: number, file: string) => void;
  /**
   * Move the transcripts' times so the newest falls in the last day (recentShiftMs),
   * keeping their order and spacing. Defaults to true for the demo (every file under
   * DEMO_DIR), whose fixed dates would otherwise age; real transcripts keep their times.
   */
  datedToNow?: boolean;
};
/** `open`: sessions left open (no /exit, written to within the idle time); importing again later closes them. */
export type ImportSummary = {
  files: number;
  sessions: number;
  open: number;
  accepted: number;
  duplicates: number;
  malformed: Malformed[];
};

/** The ids of the shipped demo sessions, read from their transcripts. */
export async function demoSessionIds(): Promise<string[]> {
  const ids = new Set<string>();
  for (const file of await transcriptFiles(DEMO_DIR))
    for (const id of sessionsOf(file, await readFile(file, "utf8"))) ids.add(id);
  return [...ids].sort();
}

/** The .jsonl files at a path: the file itself, or every .jsonl file below a directory. */
export async function transcriptFiles(target: string): Promise<string[]> {
  const info = await stat(target);
  if (info.isFile()) return [target];
  const entries = await readdir(target, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith(".jsonl"))
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

/**
 * The files in groups that share no session with another group: a session resumed
 * into a second file, or a subagent's file, is converted with the rest of it. Each
 * file is read once here and again when its group is converted, so only one group
 * is held in memory at a time.
 */
async function groupBySession(files: string[]): Promise<string[][]> {
  const parent = files.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
  const owner = new Map<string, number>();
  for (const [i, file] of files.entries()) {
    for (const session of sessionsOf(file, await readFile(file, "utf8"))) {
      const j = owner.get(session);
      if (j === undefined) owner.set(session, i);
      else parent[root(i)] = root(j);
    }
  }
  const groups = new Map<number, string[]>();
  for (const [i, file] of files.entries()) {
    const r = root(i);
    if (!groups.has(r)) groups.set(r, []);
    groups.get(r)!.push(file);
  }
  return [...groups.values()];
}

/**
 * Imports Claude Code transcripts through the same path as live events: sessions,
 * turns and tool calls, scored. Sessions are assembled across all the files given;
 * one is closed only when its transcript ends with /exit or it was idle for
 * `idleMinutes`. Importing the same files again changes nothing; importing them after
 * they grew adds what is new and scores the grown turns and sessions again.
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
  };
  for (const group of await groupBySession(files)) {
    const texts = await Promise.all(
      group.map(async (file) => ({ file, text: await readFile(file, "utf8") })),
    );
    const converted = transcriptsToEvents(texts, convertOptions);
    summary.malformed.push(...converted.malformed);
    const events = converted.events.flatMap((e): AgentEvent[] => {
      const parsed = agentEventSchema.safeParse(e);
      if (parsed.success) return [parsed.data];
      const file = "transcript_path" in e && e.transcript_path ? e.transcript_path : group[0]!;
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
    for (const file of group) {
      summary.files++;
      options.onProgress?.(summary.files, files.length, file);
    }
  }
  return summary;
}
