import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { detectTranscript } from "./formats";

const ROOT = path.resolve(import.meta.dirname, "../..");
const fixture = (relative: string) =>
  readFileSync(path.join(ROOT, "test/fixtures/transcripts", relative), "utf8");

describe("detectTranscript", () => {
  it.each([
    [
      "a Claude Code transcript starting with a queue operation",
      fixture("subagent.jsonl"),
      "claude-code",
    ],
    [
      "a Claude Code transcript starting with a user entry",
      fixture("local-commands.jsonl"),
      "claude-code",
    ],
    [
      "a Codex rollout",
      fixture("codex/rollout-2026-11-24T09-58-12-0199b1e4-7c2a-7d41-8f3e-5a9c2d7e1b60.jsonl"),
      "codex",
    ],
    [
      "a Gemini CLI session (JSONL)",
      fixture("gemini/session-2026-11-25T14-02-5c1e0b7a.jsonl"),
      "gemini-cli",
    ],
    [
      "a Gemini CLI session (one JSON document)",
      fixture("gemini/session-2026-11-20T08-15-3f2a9c1d.json"),
      "gemini-cli",
    ],
    [
      "a Codex rollout after a torn first line",
      '{"timest\n' +
        fixture("codex/rollout-2026-11-24T09-58-12-0199b1e4-7c2a-7d41-8f3e-5a9c2d7e1b60.jsonl"),
      "codex",
    ],
    ["a byte order mark", "\uFEFF" + fixture("subagent.jsonl"), "claude-code"],
    [
      "Gemini CLI's logs.json (its prompt log, not a session)",
      '[{"sessionId":"5c1e","messageId":0,"type":"user","message":"hi","timestamp":"2026-11-25T14:02:31.406Z"}]',
      null,
    ],
    ["a package.json", '{\n  "name": "shop",\n  "version": "1.0.0"\n}\n', null],
    ["JSON lines of something else", '{"level":"info","msg":"started"}\n', null],
    ["an empty file", "", null],
    ["text", "hello\nworld\n", null],
  ])("%s: %s", (_, text, agent) => {
    expect(detectTranscript(text)).toBe(agent);
  });
});
