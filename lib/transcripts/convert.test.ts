import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { agentEventSchema } from "@/lib/schemas/events";
import { transcriptToEvents } from "./convert";

const DEMO = path.resolve(import.meta.dirname, "../../demo/transcripts");
const demo = (name: string) => readFileSync(path.join(DEMO, `${name}.jsonl`), "utf8");

describe("transcriptToEvents", () => {
  it("turns a Claude Code transcript into prompts, tool calls, stops and an end", () => {
    const { events, malformed, sessionIds } = transcriptToEvents(demo("fix-failing-pagination-test"), "fallback");
    expect(malformed).toEqual([]);
    expect(sessionIds).toEqual(["3f6c2a10-7d1e-4b8a-9a51-0c2d4e6f8a01"]);
    expect(events.map((e) => e.type)).toEqual([
      "UserPromptSubmit", "PostToolUse", "PostToolUse", "PostToolUse", "PostToolUse", "Stop",
      "UserPromptSubmit", "PostToolUse", "PostToolUse", "Stop",
      "SessionEnd",
    ]);
    const stop = events[5] as { response: string };
    expect(stop.response).toMatch(/^Found it: `paginate`/);
    const bash = events[1] as { tool_name: string; tool_response: string };
    expect(bash.tool_name).toBe("Bash");
    expect(bash.tool_response).toContain("Exit code: 1");
    for (const e of events) expect(agentEventSchema.safeParse(e).success).toBe(true);
  });

  it("derives event ids from the transcript, so a second conversion is identical", () => {
    const a = transcriptToEvents(demo("big-refactor"), "x").events.map((e) => e.id);
    const b = transcriptToEvents(demo("big-refactor"), "x").events.map((e) => e.id);
    expect(a).toEqual(b);
    expect(new Set(a).size).toBe(a.length);
  });

  it("computes context utilization from the reply's token usage", () => {
    const stops = transcriptToEvents(demo("big-refactor"), "x").events.filter((e) => e.type === "Stop") as { context_utilization?: number }[];
    expect(stops[0]!.context_utilization).toBe(0.94);
  });

  it("counts malformed lines with their numbers and keeps the rest", () => {
    const text = ['{"type":"user","sessionId":"s1","uuid":"u1","message":{"role":"user","content":"hi"}}', "{not json", "[1,2]", '{"type":"assistant","sessionId":"s1"}', '{"type":"assistant","sessionId":"s1","message":{"role":"assistant","content":[{"type":"text","text":"Hello there, how can I help?"}]}}'].join("\n");
    const { events, malformed } = transcriptToEvents(text, "s1");
    expect(malformed).toEqual([
      { line: 2, reason: "not valid JSON" },
      { line: 3, reason: "not a JSON object" },
      { line: 4, reason: "an assistant entry without message.content" },
    ]);
    expect(events.map((e) => e.type)).toEqual(["UserPromptSubmit", "Stop", "SessionEnd"]);
  });

  it("uses the file name when entries carry no session id", () => {
    const { sessionIds } = transcriptToEvents('{"type":"user","message":{"role":"user","content":"hello"}}', "from-file");
    expect(sessionIds).toEqual(["from-file"]);
  });
});
