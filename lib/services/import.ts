import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { REPO_ROOT } from "@/lib/paths";
import { agentEventSchema } from "@/lib/schemas/events";
import { transcriptToEvents, type Malformed } from "@/lib/transcripts/convert";
import { ingestEvents } from "./ingest";

/** Events sent to the database per transaction while importing. */
export const IMPORT_BATCH = 500;
/** The demo sessions shipped with Charter, in Claude Code's transcript format. */
export const DEMO_DIR = path.join(REPO_ROOT, "demo", "transcripts");

export type ImportSummary = { files: number; sessions: number; accepted: number; duplicates: number; malformed: (Malformed & { file: string })[] };

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

/**
 * Imports Claude Code transcripts through the same path as live events: sessions,
 * turns and tool calls, scored. Malformed lines are counted with their line numbers;
 * importing the same files again changes nothing (event ids come from the transcript).
 */
export async function importTranscripts(files: string[], onProgress: (done: number, total: number, file: string) => void = () => undefined): Promise<ImportSummary> {
  const summary: ImportSummary = { files: 0, sessions: 0, accepted: 0, duplicates: 0, malformed: [] };
  for (const [i, file] of files.entries()) {
    const converted = transcriptToEvents(await readFile(file, "utf8"), path.basename(file, ".jsonl"));
    summary.malformed.push(...converted.malformed.map((m) => ({ ...m, file })));
    const events = converted.events.flatMap((e) => {
      const parsed = agentEventSchema.safeParse(e);
      if (parsed.success) return [parsed.data];
      summary.malformed.push({ file, line: 0, reason: `event ${e.id}: ${parsed.error.issues[0]?.message ?? "invalid"}` });
      return [];
    });
    for (let start = 0; start < events.length; start += IMPORT_BATCH) {
      const result = await ingestEvents(events.slice(start, start + IMPORT_BATCH), { source: "import" });
      summary.accepted += result.accepted;
      summary.duplicates += result.duplicates;
    }
    summary.files++;
    summary.sessions += converted.sessionIds.length;
    onProgress(i + 1, files.length, file);
  }
  return summary;
}
