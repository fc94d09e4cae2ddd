import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { agentEventSchema } from "@/lib/schemas/events";
import { codexToEvents, readRollout } from "./codex";
import { DEFAULT_IDLE_MINUTES, type TranscriptFile } from "./turns";

const ROOT = path.resolve(import.meta.dirname, "../..");
const S = "0199b1e4-7c2a-7d41-8f3e-5a9c2d7e1b60";
const FILE = `test/fixtures/transcripts/codex/rollout-2026-11-24T09-58-12-${S}.jsonl`;
const rollout: TranscriptFile = {
  file: FILE,
  text: readFileSync(path.join(ROOT, FILE), "utf8"),
};
/** The rollout as it was after its first `count` lines: Codex was still writing it. */
const firstLines = (count: number): TranscriptFile => ({
  file: FILE,
  text: rollout.text.split("\n").slice(0, count).join("\n") + "\n",
});
const convert = (files: TranscriptFile[], now: string) =>
  codexToEvents(files, { now: new Date(now), idleMinutes: DEFAULT_IDLE_MINUTES });
/** Half an hour after the rollout's last line (10:00:21.030): the session is over. */
const LATER = "2026-11-24T10:30:21.030Z";
const base = { session_id: S, agent: "codex", agent_version: "0.63.0" } as const;
const prompt = { ...base, cwd: "/home/dev/shop", transcript_path: FILE, context_delivered: false };
const npmTest = { command: ["bash", "-lc", "npm test"], workdir: "/home/dev/shop" };

/** A rollout line as Codex writes it. */
const line = (timestamp: string, type: string, payload: object) =>
  JSON.stringify({ timestamp, type, payload });
const meta = (source: unknown = "cli") =>
  line("2026-11-24T08:00:00.000Z", "session_meta", {
    id: "0199b1e4-0000-7000-8000-000000000001",
    timestamp: "2026-11-24T08:00:00.000Z",
    cwd: "/home/dev/x",
    originator: "codex_cli_rs",
    cli_version: "0.63.0",
    source,
    model_provider: "openai",
  });
const userMessage = (time: string, ...texts: string[]) =>
  line(time, "response_item", {
    type: "message",
    role: "user",
    content: texts.map((text) => ({ type: "input_text", text })),
  });
const assistant = (time: string, text: string) =>
  line(time, "response_item", {
    type: "message",
    role: "assistant",
    content: [{ type: "output_text", text }],
  });
const rolloutOf = (...lines: string[]): TranscriptFile => ({
  file: "rollout-2026-11-24T08-00-00-0199b1e4-0000-7000-8000-000000000001.jsonl",
  text: lines.join("\n") + "\n",
});

describe("codexToEvents", () => {
  it("turns a rollout into prompts, tool calls with their outputs, replies and the session's end, each naming Codex and its version", () => {
    const { events, sessions, malformed, lines } = convert([rollout], LATER);
    expect(malformed).toEqual([]);
    expect(lines).toBe(36);
    expect(events).toEqual([
      // Lines 2-4 (permissions, AGENTS.md, environment context) are Codex's own: no prompt.
      {
        type: "UserPromptSubmit",
        id: `import:${S}:prompt:L6`,
        ...prompt,
        at: "2026-11-24T09:58:20.106Z",
        prompt: "Why does npm test fail on the cart totals?",
      },
      {
        type: "PostToolUse",
        id: `import:${S}:tool:call_Rk2cT0yq7VbN`,
        ...base,
        at: "2026-11-24T09:58:27.402Z",
        tool_name: "shell",
        tool_use_id: "call_Rk2cT0yq7VbN",
        tool_input: npmTest,
        tool_response:
          'Error: exit code 1\nFAIL src/cart.test.ts\n  total() sums the line items\n    expected 30, received "0102"\nTests: 1 failed, 13 passed, 14 total\n',
      },
      {
        type: "PostToolUse",
        id: `import:${S}:tool:call_8FhZp3mWq1Ls`,
        ...base,
        at: "2026-11-24T09:58:29.301Z",
        tool_name: "shell_command",
        tool_use_id: "call_8FhZp3mWq1Ls",
        tool_input: { command: "sed -n '1,20p' src/cart.ts", workdir: "/home/dev/shop" },
        tool_response:
          'Exit code: 0\nWall time: 0.1 seconds\nOutput:\nexport function total(items: Item[]): number {\n  return items.reduce((sum, i) => sum + i.price * i.qty, "");\n}\n',
      },
      // Stopped at the token count after the reply (line 17): 9,560 input tokens of 272,000.
      {
        type: "Stop",
        id: `import:${S}:stop:L17`,
        ...base,
        at: "2026-11-24T09:58:33.801Z",
        response:
          '`total()` starts its reduce from `""`, so the first addition turns the sum into a string and the rest concatenate: `"0102"` instead of 30. Starting from `0` fixes it.',
        context_utilization: 0.0351,
      },
      {
        type: "UserPromptSubmit",
        id: `import:${S}:prompt:L19`,
        ...prompt,
        at: "2026-11-24T09:59:02.251Z",
        prompt: "fix it",
      },
      {
        type: "PostToolUse",
        id: `import:${S}:tool:call_Ap7XwQ2nE5yd`,
        ...base,
        at: "2026-11-24T09:59:07.012Z",
        tool_name: "apply_patch",
        tool_use_id: "call_Ap7XwQ2nE5yd",
        tool_input:
          '*** Begin Patch\n*** Update File: src/cart.ts\n@@\n-  return items.reduce((sum, i) => sum + i.price * i.qty, "");\n+  return items.reduce((sum, i) => sum + i.price * i.qty, 0);\n*** End Patch\n',
        tool_response: "Success. Updated the following files:\nM src/cart.ts\n",
      },
      {
        type: "PostToolUse",
        id: `import:${S}:tool:call_Tz4Ld9sPx2Qe`,
        ...base,
        at: "2026-11-24T09:59:10.815Z",
        tool_name: "shell",
        tool_use_id: "call_Tz4Ld9sPx2Qe",
        tool_input: npmTest,
        tool_response: "Tests: 14 passed, 14 total\n",
      },
      // The person's `!git diff --stat` (line 29) ends the turn and opens none.
      {
        type: "Stop",
        id: `import:${S}:stop:L28`,
        ...base,
        at: "2026-11-24T09:59:13.260Z",
        response: "Fixed: `total()` now starts from 0, and all 14 tests pass.",
        context_utilization: 0.0383,
      },
      {
        type: "UserPromptSubmit",
        id: `import:${S}:prompt:L31`,
        ...prompt,
        at: "2026-11-24T10:00:05.403Z",
        prompt: "now add a test for an empty cart",
      },
      // Interrupted (turn_aborted) before the agent said anything: no Stop; the call it cut short failed.
      {
        type: "PostToolUse",
        id: `import:${S}:tool:call_Wm5Hc8rKv3Ua`,
        ...base,
        at: "2026-11-24T10:00:21.024Z",
        tool_name: "shell",
        tool_use_id: "call_Wm5Hc8rKv3Ua",
        tool_input: { command: ["bash", "-lc", "npx vitest --watch"], workdir: "/home/dev/shop" },
        tool_response: "Error: aborted",
      },
      {
        type: "SessionEnd",
        id: `import:${S}:end:L36`,
        ...base,
        at: "2026-11-24T10:00:21.030Z",
        reason: "idle",
      },
    ]);
    expect(sessions).toEqual([{ id: S, ended: "idle", lastAt: "2026-11-24T10:00:21.030Z" }]);
    for (const e of events) expect(agentEventSchema.safeParse(e).success).toBe(true);
  });

  it("gives the same ids on every import, and leaves a session written to within the idle time open", () => {
    const soon = "2026-11-24T10:10:00.000Z";
    const first = convert([rollout], soon);
    expect(convert([rollout], soon)).toEqual(first);
    expect(first.sessions).toEqual([{ id: S, ended: null, lastAt: "2026-11-24T10:00:21.030Z" }]);
    expect(first.events.some((e) => e.type === "SessionEnd")).toBe(false);
  });

  it("adds only what is new when the rollout grew, and stops a grown turn again under a new id", () => {
    const ids = (t: TranscriptFile) => convert([t], LATER).events.map((e) => e.id);
    // Up to the first reply, before its token count: the turn stops at line 15.
    const early = ids(firstLines(15));
    expect(early).toEqual([
      `import:${S}:prompt:L6`,
      `import:${S}:tool:call_Rk2cT0yq7VbN`,
      `import:${S}:tool:call_8FhZp3mWq1Ls`,
      `import:${S}:stop:L15`,
      `import:${S}:end:L15`,
    ]);
    const full = ids(rollout);
    expect(full.filter((id) => !early.includes(id))).toEqual([
      `import:${S}:stop:L17`,
      `import:${S}:prompt:L19`,
      `import:${S}:tool:call_Ap7XwQ2nE5yd`,
      `import:${S}:tool:call_Tz4Ld9sPx2Qe`,
      `import:${S}:stop:L28`,
      `import:${S}:prompt:L31`,
      `import:${S}:tool:call_Wm5Hc8rKv3Ua`,
      `import:${S}:end:L36`,
    ]);
    // The earlier ids are kept (duplicates to the server), apart from the grown turn's Stop and the session's end.
    expect(early.filter((id) => !full.includes(id))).toEqual([
      `import:${S}:stop:L15`,
      `import:${S}:end:L15`,
    ]);
    // A call whose output is not written yet waits for it: the rollout cut after line 33 has no PostToolUse for it.
    expect(ids(firstLines(33))).not.toContain(`import:${S}:tool:call_Wm5Hc8rKv3Ua`);
  });

  it.each([
    ["a message the person typed", ["add a --dry-run flag"], "add a --dry-run flag"],
    [
      "text beside an attached image",
      ["<image name=[Image #1]>", "</image>", "what is this?"],
      "what is this?",
    ],
    [
      "AGENTS.md",
      ["# AGENTS.md instructions for /home/dev/x\n\n<INSTRUCTIONS>\nbe terse\n</INSTRUCTIONS>"],
      null,
    ],
    ["older AGENTS.md", ["<user_instructions>\n\nbe terse\n\n</user_instructions>"], null],
    [
      "the environment context",
      ["<environment_context>\n  <cwd>/x</cwd>\n</environment_context>"],
      null,
    ],
    ["a skill's instructions", ["<skill>\n<name>pdf</name>\n</skill>"], null],
    ["a subagent's notification", ["<subagent_notification>done</subagent_notification>"], null],
    ["a hook's prompt", ['<hook_prompt hook_run_id="r1">keep going</hook_prompt>'], null],
    [
      "a ! shell command",
      ["<user_shell_command>\n<command>ls</command>\n</user_shell_command>"],
      null,
    ],
    ["the interrupt marker", ["<turn_aborted>\ninterrupted\n</turn_aborted>"], null],
    ["an image alone", ["<image name=[Image #1]>", "</image>"], null],
  ])("reads a user message of %s as %s", (_, texts, expected) => {
    const { events } = convert(
      [rolloutOf(meta(), userMessage("2026-11-24T08:00:01.000Z", ...texts))],
      LATER,
    );
    const prompts = events.flatMap((e) => (e.type === "UserPromptSubmit" ? [e.prompt] : []));
    expect(prompts).toEqual(expected === null ? [] : [expected]);
  });

  it("never takes a developer message for a prompt, nor gives a reply after a ! command to the turn before", () => {
    const { events } = convert(
      [
        rolloutOf(
          meta(),
          line("2026-11-24T08:00:01.000Z", "response_item", {
            type: "message",
            role: "developer",
            content: [{ type: "input_text", text: "<permissions instructions>x" }],
          }),
          userMessage("2026-11-24T08:00:02.000Z", "list the files"),
          assistant("2026-11-24T08:00:03.000Z", "There are three."),
          userMessage("2026-11-24T08:00:04.000Z", "<user_shell_command>ls</user_shell_command>"),
          assistant("2026-11-24T08:00:05.000Z", "I see you ran ls."),
        ),
      ],
      LATER,
    );
    expect(events.map((e) => [e.type, "response" in e ? e.response : undefined])).toEqual([
      ["UserPromptSubmit", undefined],
      ["Stop", "There are three."],
      ["SessionEnd", undefined],
    ]);
  });

  it("skips a subagent's rollout: its prompts are the main agent's", () => {
    const { events, sessions } = convert(
      [
        rolloutOf(
          meta({ subagent: "review" }),
          userMessage("2026-11-24T08:00:01.000Z", "review the diff"),
          assistant("2026-11-24T08:00:02.000Z", "Looks fine."),
        ),
      ],
      LATER,
    );
    expect([events, sessions]).toEqual([[], []]);
  });

  it("reports lines that are no rollout line with their number, and names a session without session_meta after its file", () => {
    const file = rolloutOf(
      "not json",
      JSON.stringify({ type: "user", message: { content: "hi" } }),
      userMessage("2026-11-24T08:00:01.000Z", "hello"),
    );
    const { events, malformed } = convert([file], LATER);
    expect(malformed).toEqual([
      { file: file.file, line: 1, reason: "not valid JSON" },
      {
        file: file.file,
        line: 2,
        reason: "not a rollout line (it has no known type with a payload)",
      },
    ]);
    expect(events[0]).toMatchObject({
      id: "import:0199b1e4-0000-7000-8000-000000000001:prompt:L3",
      agent: "codex",
    });
    expect(events[0]).not.toHaveProperty("agent_version");
  });

  it("reads one copy of a session found in two files: the longer", () => {
    const copy = { file: "backup/rollout-copy.jsonl", text: firstLines(20).text };
    const { events, malformed } = convert([copy, rollout], LATER);
    expect(events).toEqual(convert([rollout], LATER).events);
    expect(malformed).toEqual([
      {
        file: copy.file,
        line: 0,
        reason: `holds session ${S} as ${FILE} does, which is longer and is read instead`,
      },
    ]);
  });

  it("keeps the session of the first session_meta when a fork copies its parent's", () => {
    const parent = meta().replace("0199b1e4-0000-7000-8000-000000000001", "parent-session");
    const { session } = readRollout(rolloutOf(meta(), parent).file, rolloutOf(meta(), parent).text);
    expect(session.id).toBe("0199b1e4-0000-7000-8000-000000000001");
  });
});
