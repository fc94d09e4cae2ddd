import type { KnownAgent } from "@/lib/schemas/agents";
import { codexSessionsOf, codexToEvents, isRolloutLine } from "./codex";
import { transcriptsToEvents } from "./convert";
import { sessionsOf } from "./entries";
import { geminiSessionsOf, geminiToEvents, isGeminiDocument, isGeminiRecord } from "./gemini";
import type { ConvertOptions, Converted, TranscriptFile } from "./turns";

/** The agents whose transcript files Charter imports. */
export const TRANSCRIPT_AGENTS = [
  "claude-code",
  "codex",
  "gemini-cli",
] as const satisfies readonly KnownAgent[];
export type TranscriptAgent = (typeof TRANSCRIPT_AGENTS)[number];

/** How one agent's files are read: the sessions a file holds, and files (of the same sessions) as events. */
export type TranscriptReader = {
  sessionsOf(file: string, text: string): Set<string>;
  toEvents(files: TranscriptFile[], options: ConvertOptions): Converted;
};

export const TRANSCRIPT_READERS: Record<TranscriptAgent, TranscriptReader> = {
  "claude-code": { sessionsOf, toEvents: transcriptsToEvents },
  codex: { sessionsOf: codexSessionsOf, toEvents: codexToEvents },
  "gemini-cli": { sessionsOf: geminiSessionsOf, toEvents: geminiToEvents },
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A Claude Code entry: an object with a `type`, and none of the other agents' marks. */
function isClaudeEntry(value: unknown): boolean {
  return isObject(value) && typeof value.type === "string" && !("payload" in value);
}

/**
 * Which agent wrote a transcript, from its content, whatever the file is called: its
 * first line that is a JSON object (a Codex rollout line `{timestamp, type, payload}`,
 * a Gemini CLI metadata or message record, a Claude Code entry), or else the whole
 * text as one JSON document (a Gemini CLI session before JSONL). Null: none of theirs.
 */
export function detectTranscript(text: string): TranscriptAgent | null {
  const body = text.replace(/^\uFEFF/, "");
  for (const raw of body.split("\n")) {
    const line = raw.trim();
    if (!line.startsWith("{")) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (isRolloutLine(value)) return "codex";
    if (isGeminiRecord(value)) return "gemini-cli";
    if (isClaudeEntry(value)) return "claude-code";
    break;
  }
  try {
    if (isGeminiDocument(JSON.parse(body))) return "gemini-cli";
  } catch {
    // Not one JSON document either.
  }
  return null;
}
