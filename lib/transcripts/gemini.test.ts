import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { agentEventSchema } from "@/lib/schemas/events";
import { geminiToEvents, geminiToolResponse } from "./gemini";
import { DEFAULT_IDLE_MINUTES, type TranscriptFile } from "./turns";

const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (relative: string): TranscriptFile => ({
  file: relative,
  text: readFileSync(path.join(ROOT, relative), "utf8"),
});
const S = "5c1e0b7a-2f4d-4e8b-9a61-7d3c2b1a0f99";
const session = read("test/fixtures/transcripts/gemini/session-2026-11-25T14-02-5c1e0b7a.jsonl");
const legacy = read("test/fixtures/transcripts/gemini/session-2026-11-20T08-15-3f2a9c1d.json");
const convert = (files: TranscriptFile[], now: string) =>
  geminiToEvents(files, { now: new Date(now), idleMinutes: DEFAULT_IDLE_MINUTES });
/** Half an hour after the session's last message (14:04:31.002): it is over. */
const LATER = "2026-11-25T14:34:31.002Z";
const firstLines = (t: TranscriptFile, count: number): TranscriptFile => ({
  ...t,
  text: t.text.split("\n").slice(0, count).join("\n") + "\n",
});
const base = { session_id: S, agent: "gemini-cli" } as const;
const prompt = {
  ...base,
  cwd: "/home/dev/shop",
  transcript_path: session.file,
  context_delivered: false,
};

/** A session file of these records after its metadata line. */
const sessionOf = (...records: object[]): TranscriptFile => ({
  file: "chats/session-2026-11-25T09-00-00000001.jsonl",
  text:
    [
      {
        sessionId: "00000001-0000-4000-8000-000000000000",
        projectHash: "ab",
        startTime: "2026-11-25T09:00:00.000Z",
        lastUpdated: "2026-11-25T09:00:00.000Z",
      },
      ...records,
    ]
      .map((r) => JSON.stringify(r))
      .join("\n") + "\n",
});
let clock = 0;
const at = () => new Date(Date.parse("2026-11-25T09:00:01.000Z") + clock++ * 1000).toISOString();
const user = (id: string, content: unknown, extra: object = {}) => ({
  id,
  timestamp: at(),
  type: "user",
  content,
  ...extra,
});
const gemini = (id: string, content: string, extra: object = {}) => ({
  id,
  timestamp: at(),
  type: "gemini",
  content,
  thoughts: [],
  tokens: null,
  model: "gemini-2.5-pro",
  ...extra,
});
const shell = (id: string, status: string, output: string) => ({
  id,
  name: "run_shell_command",
  args: { command: "npm test" },
  result: [{ functionResponse: { id, name: "run_shell_command", response: { output } } }],
  status,
  timestamp: at(),
  displayName: "Shell",
});
const summary = (file: TranscriptFile) =>
  convert([file], "2026-11-26T00:00:00.000Z").events.map((e) => [
    e.type,
    e.type === "UserPromptSubmit"
      ? e.prompt
      : e.type === "Stop"
        ? e.response
        : e.id.split(":").pop(),
  ]);

describe("geminiToEvents", () => {
  it("turns a session file into prompts, finished tool calls, replies and the session's end, each naming Gemini CLI", () => {
    const { events, sessions, malformed, lines } = convert([session], LATER);
    expect(malformed).toEqual([]);
    expect(lines).toBe(42);
    expect(events).toEqual([
      // The <session_context> message is Gemini CLI's own: no prompt, but it names the working directory.
      {
        type: "UserPromptSubmit",
        id: `import:${S}:prompt:b7d2e9f4-1a3c-4e5b-8d6f-0a1b2c3d4e5f`,
        ...prompt,
        at: "2026-11-25T14:02:31.406Z",
        prompt: "Why does npm test fail on the cart totals?",
      },
      {
        type: "PostToolUse",
        id: `import:${S}:tool:run_shell_command-1764079355120-3f9a2c`,
        ...base,
        at: "2026-11-25T14:02:37.884Z",
        tool_name: "run_shell_command",
        tool_use_id: "run_shell_command-1764079355120-3f9a2c",
        tool_input: { command: "npm test", description: "Run the test suite" },
        tool_response:
          'Error: exit code 1\nOutput: FAIL src/cart.test.ts\n  total() sums the line items\n    expected 30, received "0102"\nTests: 1 failed, 13 passed, 14 total\nExit Code: 1\nProcess Group PGID: 48211',
      },
      {
        type: "PostToolUse",
        id: `import:${S}:tool:read_file-1764079359702-7b1d4e`,
        ...base,
        at: "2026-11-25T14:02:39.715Z",
        tool_name: "read_file",
        tool_use_id: "read_file-1764079359702-7b1d4e",
        tool_input: { absolute_path: "/home/dev/shop/src/cart.ts" },
        tool_response:
          'export function total(items: Item[]): number {\n  return items.reduce((sum, i) => sum + i.price * i.qty, "");\n}\n',
      },
      // 9,710 input tokens of 1,048,576.
      {
        type: "Stop",
        id: `import:${S}:stop:a3b4c5d6-e7f8-4091-a2b3-c4d5e6f70819`,
        ...base,
        at: "2026-11-25T14:02:44.108Z",
        response:
          '`total()` starts its reduce from `""`, so the sum becomes a string and the amounts are concatenated (`"0102"` instead of 30). Starting from `0` fixes it.',
        context_utilization: 0.0093,
      },
      // What was typed (displayContent), not the file the @-reference added.
      {
        type: "UserPromptSubmit",
        id: `import:${S}:prompt:0a9b8c7d-6e5f-4a3b-9c2d-1e0f9a8b7c6d`,
        ...prompt,
        at: "2026-11-25T14:03:10.502Z",
        prompt: "fix it in @src/cart.ts",
      },
      {
        type: "PostToolUse",
        id: `import:${S}:tool:replace-1764079393420-9c0e5a`,
        ...base,
        at: "2026-11-25T14:03:15.046Z",
        tool_name: "replace",
        tool_use_id: "replace-1764079393420-9c0e5a",
        tool_input: {
          file_path: "/home/dev/shop/src/cart.ts",
          old_string: 'sum + i.price * i.qty, "")',
          new_string: "sum + i.price * i.qty, 0)",
          instruction: "Start the reduce from 0 so the total is a number.",
        },
        tool_response: "Successfully modified file: /home/dev/shop/src/cart.ts (1 replacements).",
      },
      {
        type: "PostToolUse",
        id: `import:${S}:tool:run_shell_command-1764079396981-2e8b7f`,
        ...base,
        at: "2026-11-25T14:03:19.540Z",
        tool_name: "run_shell_command",
        tool_use_id: "run_shell_command-1764079396981-2e8b7f",
        tool_input: { command: "npm test", description: "Run the test suite again" },
        tool_response: "Output: Tests: 14 passed, 14 total\nProcess Group PGID: 48377",
      },
      {
        type: "Stop",
        id: `import:${S}:stop:5f607182-93a4-4b5c-96d7-f8091a2b3c45`,
        ...base,
        at: "2026-11-25T14:03:21.815Z",
        response: "Fixed: `total()` now starts from 0, and all 14 tests pass.",
        context_utilization: 0.01,
      },
      {
        type: "UserPromptSubmit",
        id: `import:${S}:prompt:60718293-a4b5-4c6d-a7e8-091a2b3c4d56`,
        ...prompt,
        at: "2026-11-25T14:04:02.117Z",
        prompt: "run the linter and fix what it finds",
      },
      // Status success, but the shell says exit code 1: failed. Status error: failed.
      {
        type: "PostToolUse",
        id: `import:${S}:tool:run_shell_command-1764079444455-5d1c3b`,
        ...base,
        at: "2026-11-25T14:04:06.031Z",
        tool_name: "run_shell_command",
        tool_use_id: "run_shell_command-1764079444455-5d1c3b",
        tool_input: { command: "npm run lint", description: "Run the linter" },
        tool_response:
          "Error: exit code 1\nOutput: src/cart.test.ts\n  3:10  error  'Cart' is defined but never used  no-unused-vars\n\n1 problem (1 error, 0 warnings)\nExit Code: 1\nProcess Group PGID: 48420",
      },
      {
        type: "PostToolUse",
        id: `import:${S}:tool:replace-1764079446120-0f4e6d`,
        ...base,
        at: "2026-11-25T14:04:06.190Z",
        tool_name: "replace",
        tool_use_id: "replace-1764079446120-0f4e6d",
        tool_input: {
          file_path: "/home/dev/shop/src/cart.test.ts",
          old_string: 'import { Cart, total } from "./cart";',
          new_string: 'import { total } from "./cart";',
          instruction: "Drop the unused Cart import.",
        },
        tool_response:
          "Error: Failed to edit, 0 occurrences found for old_string in /home/dev/shop/src/cart.test.ts. No edits made.",
      },
      {
        type: "Stop",
        id: `import:${S}:stop:93a4b5c6-d7e8-4f90-a1b2-3c4d5e6f7089`,
        ...base,
        at: "2026-11-25T14:04:09.660Z",
        response:
          "The linter flags an unused `Cart` import in src/cart.test.ts; my edit did not match the file, so it is still there.",
        context_utilization: 0.0105,
      },
      {
        type: "SessionEnd",
        id: `import:${S}:end:a4b5c6d7-e8f9-4a01-b2c3-4d5e6f708192`,
        ...base,
        at: "2026-11-25T14:04:31.002Z",
        reason: "idle",
      },
    ]);
    expect(sessions).toEqual([{ id: S, ended: "idle", lastAt: "2026-11-25T14:04:31.002Z" }]);
    for (const e of events) expect(agentEventSchema.safeParse(e).success).toBe(true);
  });

  it("reads a session Gemini CLI wrote as one JSON document before it recorded JSONL", () => {
    const L = "3f2a9c1d-8e7b-4c6a-9d5e-1f0a2b3c4d5e";
    const { events } = convert([legacy], "2026-11-21T00:00:00.000Z");
    expect(events).toEqual([
      {
        type: "UserPromptSubmit",
        id: `import:${L}:prompt:6b7c8d9e-0f1a-4b2c-8d3e-4f5a6b7c8d9e`,
        session_id: L,
        agent: "gemini-cli",
        at: "2026-11-20T08:15:58.024Z",
        transcript_path: legacy.file,
        prompt: "How do I list the files changed in the last commit?",
        context_delivered: false,
      },
      {
        type: "Stop",
        id: `import:${L}:stop:7c8d9e0f-1a2b-4c3d-9e4f-5a6b7c8d9e0f`,
        session_id: L,
        agent: "gemini-cli",
        at: "2026-11-20T08:16:05.871Z",
        response:
          "Run `git show --stat HEAD`: it lists each file the last commit changed, with its added and removed lines.",
        context_utilization: 0.007,
      },
      {
        type: "SessionEnd",
        id: `import:${L}:end:7c8d9e0f-1a2b-4c3d-9e4f-5a6b7c8d9e0f`,
        session_id: L,
        agent: "gemini-cli",
        at: "2026-11-20T08:16:05.871Z",
        reason: "idle",
      },
    ]);
  });

  it("reads a resumed .json session with the .jsonl Gemini CLI moved it to as one session, naming the .jsonl", () => {
    const moved = {
      file: legacy.file + "l",
      text: [
        JSON.stringify({
          sessionId: "3f2a9c1d-8e7b-4c6a-9d5e-1f0a2b3c4d5e",
          projectHash: "9d4c",
          startTime: "2026-11-20T08:15:42.310Z",
          lastUpdated: "2026-11-20T08:16:05.871Z",
        }),
        ...(JSON.parse(legacy.text) as { messages: object[] }).messages.map((m) =>
          JSON.stringify(m),
        ),
        JSON.stringify({
          id: "8d9e0f1a-2b3c-4d4e-8f5a-6b7c8d9e0f1a",
          timestamp: "2026-11-20T09:00:00.000Z",
          type: "user",
          content: [{ text: "and in the one before?" }],
        }),
      ].join("\n"),
    };
    const { events, sessions } = convert([legacy, moved], "2026-11-20T09:10:00.000Z");
    expect(sessions).toHaveLength(1);
    expect(
      events.flatMap((e) => (e.type === "UserPromptSubmit" ? [[e.prompt, e.transcript_path]] : [])),
    ).toEqual([
      ["How do I list the files changed in the last commit?", moved.file],
      ["and in the one before?", moved.file],
    ]);
  });

  it("gives the same ids on every import and adds only what is new when the file grew; a tool call still running waits", () => {
    const ids = (t: TranscriptFile) => convert([t], LATER).events.map((e) => e.id);
    expect(convert([session], LATER)).toEqual(convert([session], LATER));
    // Line 6: the first reply, written before its tool call finished (line 8 writes it again with the call).
    const early = ids(firstLines(session, 7));
    expect(early).toEqual([
      `import:${S}:prompt:b7d2e9f4-1a3c-4e5b-8d6f-0a1b2c3d4e5f`,
      `import:${S}:stop:c4a81f0e-6d2b-4f9a-b3e7-5c1d0e2f3a4b`,
      `import:${S}:end:c4a81f0e-6d2b-4f9a-b3e7-5c1d0e2f3a4b`,
    ]);
    const full = ids(session);
    expect(early.filter((id) => !full.includes(id))).toEqual([
      `import:${S}:stop:c4a81f0e-6d2b-4f9a-b3e7-5c1d0e2f3a4b`,
      `import:${S}:end:c4a81f0e-6d2b-4f9a-b3e7-5c1d0e2f3a4b`,
    ]);
    expect(full.filter((id) => !early.includes(id))).toHaveLength(full.length - 1);

    const running = sessionOf(
      user("u1", [{ text: "run the tests" }]),
      gemini("g1", "", { toolCalls: [shell("call-1", "executing", "")] }),
    );
    expect(summary(running)).toEqual([
      ["UserPromptSubmit", "run the tests"],
      ["SessionEnd", "g1"],
    ]);
  });

  it("takes no tool result, session context, command or compression summary for a prompt, and gives no turn the model's answer to them", () => {
    clock = 0;
    const file = sessionOf(
      user("ctx", [{ text: "<session_context>\nThis is the Gemini CLI.\n</session_context>" }]),
      user("p1", [
        { text: "what does cart.ts export?" },
        { text: "<hook_context>Charter: be brief</hook_context>" },
      ]),
      gemini("g1", "", { toolCalls: [shell("c1", "success", "Output: total")] }),
      user("r1", [
        {
          functionResponse: { id: "c1", name: "run_shell_command", response: { output: "total" } },
        },
      ]),
      gemini("g2", "It exports `total`."),
      user("cmd", [{ text: "/memory add use pnpm" }]),
      gemini("g3", "Saved to memory."),
      user("help", [{ text: "?" }]),
      user("snap", [
        { text: "<state_snapshot>\n<overall_goal>fix totals</overall_goal>\n</state_snapshot>" },
      ]),
      gemini("ack", "Got it. Thanks for the additional context!"),
      { id: "i1", timestamp: at(), type: "info", content: "Chat history compressed" },
      user("p2", [{ text: "thanks" }]),
    );
    expect(summary(file)).toEqual([
      ["UserPromptSubmit", "what does cart.ts export?"],
      ["PostToolUse", "c1"],
      ["Stop", "It exports `total`."],
      ["UserPromptSubmit", "thanks"],
      ["SessionEnd", "p2"],
    ]);
  });

  it("ends the session when it ends with /quit", () => {
    const file = sessionOf(
      user("p1", [{ text: "hi" }]),
      gemini("g1", "Hello!"),
      user("q", [{ text: "/quit" }]),
    );
    const { events, sessions } = convert([file], "2026-11-25T09:00:30.000Z");
    expect(sessions[0]?.ended).toBe("exit");
    expect(events.at(-1)).toMatchObject({ type: "SessionEnd", reason: "exit" });
  });

  it("keeps what a checkpoint compressed away or a rewind dropped: those turns happened", () => {
    clock = 0;
    const p1 = user("p1", [{ text: "first question" }]);
    const g1 = gemini("g1", "First answer.");
    const p2 = user("p2", [{ text: "second question" }]);
    const file = sessionOf(
      p1,
      g1,
      p2,
      gemini("g2", "Second answer."),
      // A checkpoint that keeps only the summary and the last turn, with masked content.
      {
        $set: {
          messages: [
            user("snap", [{ text: "<state_snapshot>first</state_snapshot>" }]),
            gemini("ack", "Got it. Thanks for the additional context!"),
            { ...p2, content: [{ text: "[masked]" }] },
          ],
        },
      },
      { $rewindTo: "p2" },
      user("p3", [{ text: "third question" }]),
      gemini("g3", "Third answer."),
    );
    expect(summary(file)).toEqual([
      ["UserPromptSubmit", "first question"],
      ["Stop", "First answer."],
      ["UserPromptSubmit", "second question"],
      ["Stop", "Second answer."],
      ["UserPromptSubmit", "third question"],
      ["Stop", "Third answer."],
      ["SessionEnd", "g3"],
    ]);
  });

  it("skips a subagent's session, and reports lines that are no session record", () => {
    const sub = sessionOf(
      { $set: { kind: "subagent" } },
      user("p1", [{ text: "count the words" }]),
      gemini("g1", "12"),
    );
    expect(convert([sub], LATER)).toMatchObject({ events: [], sessions: [] });
    const bad = { ...sub, text: sub.text.replace('{"$set":{"kind":"subagent"}}', "nope") };
    expect(convert([bad], LATER).malformed).toEqual([
      { file: bad.file, line: 2, reason: "not valid JSON" },
    ]);
  });
});

describe("geminiToolResponse", () => {
  const call = (status: string, response: object, resultDisplay?: string) => ({
    id: "c",
    name: "t",
    status,
    result: [{ functionResponse: { id: "c", name: "t", response } }],
    resultDisplay,
  });
  it.each([
    ["output", call("success", { output: "done" }), "done"],
    ["error", call("error", { error: "File not found." }), "Error: File not found."],
    [
      "cancelled",
      call("cancelled", { error: "[Operation Cancelled] Reason: User cancelled." }),
      "Error: [Operation Cancelled] Reason: User cancelled.",
    ],
    [
      "a wrapped shell output that exited 2",
      call("success", {
        output: "<untrusted_context>\nOutput: nope\nExit Code: 2\n</untrusted_context>",
      }),
      "Error: exit code 2\nOutput: nope\nExit Code: 2",
    ],
    [
      "no result, a display text",
      { id: "c", status: "success", resultDisplay: "Listed 3 files." },
      "Listed 3 files.",
    ],
  ])("%s", (_, toolCall, expected) => {
    expect(geminiToolResponse(toolCall)).toBe(expected);
  });
});
