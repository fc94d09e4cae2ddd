import type { AgentEventInput } from "@/lib/schemas/events";

/**
 * Claude Code transcripts (JSONL, one entry per line) as agent events. Each user
 * prompt opens a turn, each tool_use/tool_result pair is a PostToolUse, the last
 * assistant text before the next prompt stops the turn. Event ids are derived from
 * the transcript's own ids, so importing a file twice changes nothing.
 */

type Block = { type?: string; text?: string; id?: string; name?: string; input?: unknown; tool_use_id?: string; content?: unknown; is_error?: boolean };
type Entry = {
  type?: string;
  uuid?: string;
  sessionId?: string;
  timestamp?: string;
  cwd?: string;
  isMeta?: boolean;
  message?: { role?: string; content?: string | Block[]; usage?: Record<string, number> };
};

export type Malformed = { line: number; reason: string };
export type Converted = { sessionIds: string[]; events: AgentEventInput[]; malformed: Malformed[]; lines: number };

/** Claude Code's context window, for context_utilization from a reply's token usage. */
export const CONTEXT_WINDOW_TOKENS = 200_000;

function textOf(content: string | Block[] | undefined): string {
  if (typeof content === "string") return content;
  return (content ?? []).filter((b) => b.type === "text" && typeof b.text === "string").map((b) => b.text).join("\n");
}

function toolResultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((c: Block) => (typeof c?.text === "string" ? c.text : JSON.stringify(c))).join("\n");
  return JSON.stringify(content ?? "");
}

function utilization(usage: Record<string, number> | undefined): number | undefined {
  if (!usage) return undefined;
  const used = (usage.input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
  return used > 0 ? Math.min(1, Math.round((used / CONTEXT_WINDOW_TOKENS) * 10_000) / 10_000) : undefined;
}

/** Converts a transcript's text; `fallbackSessionId` names the session when entries carry none (the file name). */
export function transcriptToEvents(text: string, fallbackSessionId: string): Converted {
  const malformed: Malformed[] = [];
  const events: AgentEventInput[] = [];
  const sessions = new Set<string>();
  const lastAt = new Map<string, string>();
  const pendingTools = new Map<string, { name: string; input: unknown; at?: string; session: string }>();
  let open: { session: string; promptId: string; lastText: string; lastAt?: string; usage?: Record<string, number> } | null = null;
  const lines = text.split("\n");

  const stop = () => {
    if (!open) return;
    events.push({ type: "Stop", id: `import:${open.session}:stop:${open.promptId}`, session_id: open.session, at: open.lastAt, response: open.lastText, context_utilization: utilization(open.usage) });
    open = null;
  };

  lines.forEach((raw, index) => {
    const lineNo = index + 1;
    if (!raw.trim()) return;
    let entry: Entry;
    try {
      entry = JSON.parse(raw) as Entry;
    } catch {
      malformed.push({ line: lineNo, reason: "not valid JSON" });
      return;
    }
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      malformed.push({ line: lineNo, reason: "not a JSON object" });
      return;
    }
    if (entry.type !== "user" && entry.type !== "assistant") return; // summaries, system notes
    if (!entry.message || (typeof entry.message.content !== "string" && !Array.isArray(entry.message.content))) {
      malformed.push({ line: lineNo, reason: `an ${entry.type} entry without message.content` });
      return;
    }
    const session = entry.sessionId ?? fallbackSessionId;
    sessions.add(session);
    const at = entry.timestamp && !Number.isNaN(Date.parse(entry.timestamp)) ? new Date(entry.timestamp).toISOString() : undefined;
    if (at) lastAt.set(session, at);
    const content = entry.message.content;
    const blocks = Array.isArray(content) ? content : [];

    if (entry.type === "user") {
      for (const b of blocks.filter((b) => b.type === "tool_result")) {
        const use = b.tool_use_id ? pendingTools.get(b.tool_use_id) : undefined;
        if (!use || !b.tool_use_id) continue;
        pendingTools.delete(b.tool_use_id);
        const output = toolResultText(b.content);
        events.push({ type: "PostToolUse", id: `import:${use.session}:tool:${b.tool_use_id}`, session_id: use.session, at, tool_name: use.name, tool_use_id: b.tool_use_id, tool_input: use.input, tool_response: b.is_error ? `Error: ${output}` : output });
      }
      const prompt = textOf(content).trim();
      if (prompt && !entry.isMeta && blocks.every((b) => b.type !== "tool_result")) {
        stop();
        const promptId = entry.uuid ?? `line${lineNo}`;
        events.push({ type: "UserPromptSubmit", id: `import:${session}:prompt:${promptId}`, session_id: session, at, cwd: entry.cwd, prompt });
        open = { session, promptId, lastText: "", lastAt: at };
      }
      return;
    }
    // assistant
    for (const b of blocks.filter((b) => b.type === "tool_use" && b.id && b.name)) pendingTools.set(b.id!, { name: b.name!, input: b.input, at, session });
    const reply = textOf(content).trim();
    if (open && reply) {
      open.lastText = reply;
      open.lastAt = at;
      open.usage = entry.message.usage ?? open.usage;
    }
  });
  stop();
  for (const session of sessions) events.push({ type: "SessionEnd", id: `import:${session}:end`, session_id: session, at: lastAt.get(session), reason: "imported" });
  return { sessionIds: [...sessions], events, malformed, lines: lines.filter((l) => l.trim()).length };
}
