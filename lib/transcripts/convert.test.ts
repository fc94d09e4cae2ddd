import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { agentEventSchema } from "@/lib/schemas/events";
import {
  DEFAULT_IDLE_MINUTES,
  newestEntryTime,
  RECENT_DAYS,
  recentShiftMs,
  transcriptsToEvents,
  type TranscriptFile,
} from "./convert";

const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (relative: string): TranscriptFile => ({
  file: relative,
  text: readFileSync(path.join(ROOT, relative), "utf8"),
});
const demo = (name: string) => read(`demo/transcripts/${name}.jsonl`);
const fixture = (name: string) => read(`test/fixtures/transcripts/${name}.jsonl`);
/** The first `count` lines of a transcript: the file as it was while Claude Code was still writing it. */
const firstLines = (t: TranscriptFile, count: number): TranscriptFile => ({
  ...t,
  text: t.text.split("\n").slice(0, count).join("\n") + "\n",
});

const idle = DEFAULT_IDLE_MINUTES;
const convert = (files: TranscriptFile[], now: string) =>
  transcriptsToEvents(files, { now: new Date(now), idleMinutes: idle });
/** 0.102 = (2,400 input + 18,000 cache-read tokens) / 200,000, the usage every fixture reply carries. */
const UTILIZATION = 0.102;
/** What every event of the fixtures names: the agent and the Claude Code version that wrote them. */
const CLAUDE = { agent: "claude-code", agent_version: "2.0.55" } as const;

describe("transcriptsToEvents", () => {
  it("skips a subagent's (sidechain) entries: its prompt is not a prompt and its reply is not the main agent's", () => {
    const S = "7b0e3c52-91d4-4f6e-8a27-5c1f0d9e6b13";
    const file = fixture("subagent");
    const { events, sessions, malformed } = convert([file], "2026-11-21T09:30:16.000Z");
    expect(malformed).toEqual([]);
    expect(events).toEqual([
      {
        type: "UserPromptSubmit",
        id: `import:${S}:prompt:7b0e3c52-0001`,
        session_id: S,
        ...CLAUDE,
        at: "2026-11-21T09:00:00.000Z",
        cwd: "/home/dev/notes",
        transcript_path: file.file,
        prompt: "How many words are in notes.md? Ask a subagent to count them.",
        context_delivered: false,
      },
      {
        type: "PostToolUse",
        id: `import:${S}:tool:toolu_7b0e_task`,
        session_id: S,
        ...CLAUDE,
        at: "2026-11-21T09:00:13.000Z",
        tool_name: "Task",
        tool_use_id: "toolu_7b0e_task",
        tool_input: {
          description: "Count words",
          prompt: "Count the words in notes.md and report the number.",
          subagent_type: "general-purpose",
        },
        tool_response: "notes.md has 12 words.",
      },
      {
        type: "Stop",
        id: `import:${S}:stop:7b0e3c52-0008`,
        session_id: S,
        ...CLAUDE,
        at: "2026-11-21T09:00:16.000Z",
        response: "notes.md has 12 words, as the subagent counted with `wc -w`.",
        context_utilization: UTILIZATION,
      },
      {
        type: "SessionEnd",
        id: `import:${S}:end:7b0e3c52-0008`,
        session_id: S,
        ...CLAUDE,
        at: "2026-11-21T09:00:16.000Z",
        reason: "idle",
      },
    ]);
    expect(sessions).toEqual([{ id: S, ended: "idle", lastAt: "2026-11-21T09:00:16.000Z" }]);
  });

  it("reads a subagent's entries the same from their own file (agent-<id>.jsonl, same sessionId)", () => {
    const [main, side] = [fixture("subagent"), fixture("subagent")];
    const isSide = (line: string) => line.includes('"isSidechain":true');
    const split = [
      {
        file: "p/7b0e3c52.jsonl",
        text: main.text
          .split("\n")
          .filter((l) => !isSide(l))
          .join("\n"),
      },
      {
        file: "p/7b0e3c52/subagents/agent-a3f9c2e1.jsonl",
        text: side.text.split("\n").filter(isSide).join("\n"),
      },
    ];
    const now = "2026-11-21T09:30:16.000Z";
    const strip = (events: object[]) => events.map((e) => ({ ...e, transcript_path: undefined }));
    expect(strip(convert(split, now).events)).toEqual(strip(convert([main], now).events));
  });

  it("takes no local command, command output or caveat for a prompt, and gives no turn the reply to a slash command", () => {
    const L = "c41a9d07-2e6b-4b3f-9f15-8d0a7e2c5b64";
    const file = fixture("local-commands");
    const { events, sessions } = convert([file], "2026-11-21T10:06:20.000Z");
    const base = {
      session_id: L,
      ...CLAUDE,
      cwd: "/home/dev/cli",
      transcript_path: file.file,
      context_delivered: false,
    };
    expect(events).toEqual([
      {
        type: "UserPromptSubmit",
        id: `import:${L}:prompt:c41a9d07-0001`,
        at: "2026-11-21T10:00:00.000Z",
        prompt: "add a --verbose flag to the CLI",
        ...base,
      },
      {
        type: "PostToolUse",
        id: `import:${L}:tool:toolu_c41a_edit`,
        session_id: L,
        ...CLAUDE,
        at: "2026-11-21T10:00:06.000Z",
        tool_name: "Edit",
        tool_use_id: "toolu_c41a_edit",
        tool_input: {
          file_path: "/home/dev/cli/cli.ts",
          old_string: "program.parse()",
          new_string: 'program.option("--verbose");\nprogram.parse()',
        },
        tool_response: "The file /home/dev/cli/cli.ts has been updated.",
      },
      {
        type: "Stop",
        id: `import:${L}:stop:c41a9d07-0004`,
        session_id: L,
        ...CLAUDE,
        at: "2026-11-21T10:00:09.000Z",
        response: "Added `--verbose` to the CLI; it is off by default.",
        context_utilization: UTILIZATION,
      },
      // The /review command's expanded prompt is meta: its Read and its reply belong to no turn.
      {
        type: "UserPromptSubmit",
        id: `import:${L}:prompt:c41a9d07-0013`,
        at: "2026-11-21T10:01:00.000Z",
        prompt: "thanks, now run the tests",
        ...base,
      },
      {
        type: "PostToolUse",
        id: `import:${L}:tool:toolu_c41a_test`,
        session_id: L,
        ...CLAUDE,
        at: "2026-11-21T10:01:10.000Z",
        tool_name: "Bash",
        tool_use_id: "toolu_c41a_test",
        tool_input: { command: "npm test" },
        tool_response:
          "Error: The user doesn't want to proceed with this tool use. The tool use was rejected.",
      },
      // Interrupted before the agent said anything: no Stop. The last prompt has no reply yet: no Stop.
      {
        type: "UserPromptSubmit",
        id: `import:${L}:prompt:c41a9d07-0017`,
        at: "2026-11-21T10:01:20.000Z",
        prompt: "write a changelog entry for it",
        ...base,
      },
    ]);
    expect(sessions).toEqual([{ id: L, ended: null, lastAt: "2026-11-21T10:01:20.000Z" }]);
  });

  it.each([
    ["one minute short of the idle time", "2026-11-21T10:30:20.000Z", []],
    [
      "at the idle time",
      "2026-11-21T10:31:20.000Z",
      [
        {
          type: "SessionEnd",
          id: "import:c41a9d07-2e6b-4b3f-9f15-8d0a7e2c5b64:end:c41a9d07-0017",
          session_id: "c41a9d07-2e6b-4b3f-9f15-8d0a7e2c5b64",
          ...CLAUDE,
          at: "2026-11-21T10:01:20.000Z",
          reason: "idle",
        },
      ],
    ],
  ])("ends a session with no /exit only after the idle time: %s", (_, now, ends) => {
    expect(
      convert([fixture("local-commands")], now).events.filter((e) => e.type === "SessionEnd"),
    ).toEqual(ends);
  });

  it("ends a session whose transcript ends with /exit at once", () => {
    const { events, sessions } = convert([demo("pipe-bomb-refusal")], "2026-11-20T21:03:56.000Z");
    const S = "1b2c3d4e-6f70-4a81-b92c-3d4e5f6a7b05";
    expect(events.map((e) => e.type)).toEqual(["UserPromptSubmit", "Stop", "SessionEnd"]);
    expect(events[2]).toEqual({
      type: "SessionEnd",
      id: `import:${S}:end:1b2c3d4e-0005`,
      session_id: S,
      agent: "claude-code",
      agent_version: "2.0.14",
      at: "2026-11-20T21:03:56.000Z",
      reason: "exit",
    });
    expect(sessions[0]!.ended).toBe("exit");
  });

  it("keeps a session open after an /exit followed by a new prompt (it was resumed)", () => {
    const t = demo("pipe-bomb-refusal");
    const again = JSON.stringify({
      type: "user",
      sessionId: "1b2c3d4e-6f70-4a81-b92c-3d4e5f6a7b05",
      uuid: "1b2c3d4e-0006",
      timestamp: "2026-11-20T21:10:00.000Z",
      message: { role: "user", content: "ok, what about fireworks safety?" },
    });
    const { events } = convert([{ ...t, text: t.text + again + "\n" }], "2026-11-20T21:10:00.000Z");
    expect(events.map((e) => e.type)).toEqual(["UserPromptSubmit", "Stop", "UserPromptSubmit"]);
  });

  it("assembles a session from two files, in time order, each entry once", () => {
    const R = "e8d2b6f1-4c3a-4d9e-b7a5-2f6c0e1d9a38";
    const [first, second] = [fixture("resumed/first"), fixture("resumed/second")];
    const now = "2026-11-22T00:00:00.000Z";
    const summary = (files: TranscriptFile[]) =>
      convert(files, now).events.map((e) => `${e.type} ${e.id.replace(`import:${R}:`, "")}`);
    const expected = [
      "UserPromptSubmit prompt:e8d2b6f1-0001",
      "Stop stop:e8d2b6f1-0002",
      "UserPromptSubmit prompt:e8d2b6f1-0003",
      "PostToolUse tool:toolu_e8d2_edit",
      "Stop stop:e8d2b6f1-0006",
      "SessionEnd end:e8d2b6f1-0006",
    ];
    expect(summary([first, second])).toEqual(expected);
    expect(summary([second, first])).toEqual(expected);
    // The first file alone ends at its own last entry; with the second, the session ends again, later.
    expect(summary([first])).toEqual([
      "UserPromptSubmit prompt:e8d2b6f1-0001",
      "Stop stop:e8d2b6f1-0002",
      "SessionEnd end:e8d2b6f1-0002",
    ]);
    expect(convert([first, second], now).sessions).toEqual([
      { id: R, ended: "idle", lastAt: "2026-11-21T12:00:10.000Z" },
    ]);
  });

  it("stops a turn again, under a new id, once it grew; an unchanged transcript converts to the same ids", () => {
    const S = "7b0e3c52-91d4-4f6e-8a27-5c1f0d9e6b13";
    const full = fixture("subagent");
    const now = "2026-11-21T09:00:20.000Z";
    const partial = convert([firstLines(full, 4)], now).events;
    expect(partial.map((e) => e.type)).toEqual(["UserPromptSubmit", "Stop"]);
    expect(partial[1]).toMatchObject({
      id: `import:${S}:stop:7b0e3c52-0002`,
      response: "I'll ask a subagent to count them.",
    });
    const grown = convert([full], now).events;
    expect(grown.map((e) => e.id)).toEqual([
      `import:${S}:prompt:7b0e3c52-0001`,
      `import:${S}:tool:toolu_7b0e_task`,
      `import:${S}:stop:7b0e3c52-0008`,
    ]);
    expect(convert([full], now).events).toEqual(grown);
  });

  it("accepts a UTF-8 byte order mark and CRLF line ends", () => {
    const t = demo("headache-question");
    const plain = convert([t], "2026-11-21T00:00:00.000Z");
    const marked = convert(
      [{ ...t, text: `\uFEFF${t.text.replaceAll("\n", "\r\n")}` }],
      "2026-11-21T00:00:00.000Z",
    );
    expect(marked.malformed).toEqual([]);
    expect(marked.events).toEqual(plain.events);
    expect(marked.events[0]).toMatchObject({
      type: "UserPromptSubmit",
      id: "import:8a1d44c2-19b0-4e7c-8f3e-5b6a7c8d9e02:prompt:8a1d44c2-0001",
    });
  });

  it("turns the demo transcripts into valid events with the reply's context utilization", () => {
    const { events, malformed, sessions } = convert(
      [demo("fix-failing-pagination-test"), demo("big-refactor")],
      "2026-11-21T00:00:00.000Z",
    );
    expect(malformed).toEqual([]);
    expect(sessions.map((s) => s.ended)).toEqual(["exit", "exit"]);
    for (const e of events) expect(agentEventSchema.safeParse(e).success).toBe(true);
    const pagination = events
      .filter((e) => e.session_id === "3f6c2a10-7d1e-4b8a-9a51-0c2d4e6f8a01")
      .map((e) => e.type);
    expect(pagination).toEqual([
      "UserPromptSubmit",
      "PostToolUse",
      "PostToolUse",
      "PostToolUse",
      "PostToolUse",
      "Stop",
      "UserPromptSubmit",
      "PostToolUse",
      "PostToolUse",
      "Stop",
      "SessionEnd",
    ]);
    const stops = events.filter(
      (e) => e.type === "Stop" && e.session_id.startsWith("e4f0a8b6"),
    ) as { context_utilization?: number }[];
    expect(stops[0]!.context_utilization).toBe(0.94);
  });

  it("reports malformed lines with file and line number and keeps the rest", () => {
    const text = [
      '{"type":"user","sessionId":"s1","uuid":"u1","message":{"role":"user","content":"hi"}}',
      "{not json",
      "[1,2]",
      '{"type":"assistant","sessionId":"s1"}',
      '{"silly":"this"}',
      '{"type":"user","sessionId":"s1","uuid":"u9"}',
      '{"type":"assistant","sessionId":"s1","uuid":"u2","message":{"role":"assistant","content":[{"type":"text","text":"Hello there, how can I help?"}]}}',
    ].join("\n");
    const { events, malformed } = convert(
      [{ file: "x/s1.jsonl", text }],
      "2026-11-21T00:00:00.000Z",
    );
    expect(malformed).toEqual([
      { file: "x/s1.jsonl", line: 2, reason: "not valid JSON" },
      { file: "x/s1.jsonl", line: 3, reason: "not a JSON object" },
      { file: "x/s1.jsonl", line: 4, reason: "an assistant entry without message.content" },
      { file: "x/s1.jsonl", line: 5, reason: "not a transcript entry (it has no type)" },
      { file: "x/s1.jsonl", line: 6, reason: "a user entry without message.content" },
    ]);
    // No timestamps: the session cannot be known to be idle, so it stays open.
    expect(events.map((e) => e.type)).toEqual(["UserPromptSubmit", "Stop"]);
  });

  it("keeps the earliest of two entries with one uuid in a session, and reports a repeat that differs", () => {
    const entry = (uuid: string, text: string, at: string) =>
      JSON.stringify({
        type: "user",
        sessionId: "s1",
        uuid,
        timestamp: at,
        message: { role: "user", content: text },
      });
    const { events, malformed } = convert(
      [
        { file: "a.jsonl", text: entry("u1", "the real prompt", "2026-11-20T10:00:00.000Z") },
        {
          file: "b.jsonl",
          text: [
            // A resumed session repeats its entries word for word: silently kept once.
            entry("u1", "the real prompt", "2026-11-20T10:00:00.000Z"),
            // Another tool's file reuses the uuid: reported, and the earlier entry counts.
            entry("u1", "a broken copy", "2026-11-20T10:05:00.000Z"),
          ].join("\n"),
        },
      ],
      "2026-11-21T00:00:00.000Z",
    );
    const prompts = events.flatMap((e) => (e.type === "UserPromptSubmit" ? [e.prompt] : []));
    expect(prompts).toEqual(["the real prompt"]);
    expect(malformed).toEqual([
      {
        file: "b.jsonl",
        line: 2,
        reason: "repeats the uuid u1 of a.jsonl:1 with other content; the earlier entry is kept",
      },
    ]);
  });

  it("uses the file name when entries carry no session id", () => {
    const { sessions } = convert(
      [
        {
          file: "dir/from-file.jsonl",
          text: '{"type":"user","message":{"role":"user","content":"hello"}}',
        },
      ],
      "2026-11-21T00:00:00.000Z",
    );
    expect(sessions).toEqual([{ id: "from-file", ended: null, lastAt: null }]);
  });
});

describe("recentShiftMs", () => {
  const DAY = 86_400_000;
  const now = new Date("2026-12-10T12:00:00.000Z");
  const at = (iso: string) => Date.parse(iso);

  it.each([
    [
      "an idle transcript of the last RECENT_DAYS days keeps its times",
      at("2026-12-08T09:00:00.000Z"),
      0,
    ],
    [
      "an old one moves by whole days to the day before now, less the idle time",
      at("2026-11-20T21:03:56.000Z"),
      19 * DAY,
    ],
    [
      "one newer than now less the idle time moves back a whole day",
      at("2026-12-10T11:45:00.000Z"),
      -DAY,
    ],
    ["one from the future moves back", at("2026-12-20T08:00:00.000Z"), -10 * DAY],
  ])("%s", (_, newest, shift) => {
    expect(recentShiftMs(newest, now, idle)).toBe(shift);
  });

  it(`leaves the newest entry within the day before now less the idle time, RECENT_DAYS = ${RECENT_DAYS}`, () => {
    for (const newest of [
      at("2020-01-01T00:00:00.000Z"),
      at("2026-12-01T23:59:59.000Z"),
      at("2027-03-01T06:00:00.000Z"),
    ]) {
      const moved = newest + recentShiftMs(newest, now, idle);
      expect(moved).toBeLessThanOrEqual(now.getTime() - idle * 60_000);
      expect(moved).toBeGreaterThan(now.getTime() - idle * 60_000 - DAY);
    }
  });
});

describe("transcriptsToEvents with shiftMs", () => {
  it("moves every event by the shift and keeps ids, order and spacing, so the demo dated to now is still idempotent", () => {
    const files = [demo("fix-failing-pagination-test"), demo("big-refactor")];
    const now = "2026-12-01T00:00:00.000Z";
    const plain = convert(files, now);
    const shiftMs = recentShiftMs(newestEntryTime(files)!, new Date(now), idle);
    const shifted = transcriptsToEvents(files, { now: new Date(now), idleMinutes: idle, shiftMs });
    expect(shiftMs).not.toBe(0);
    expect(shifted.events.map((e) => e.id)).toEqual(plain.events.map((e) => e.id));
    expect(shifted.events.map((e) => (e.at ? Date.parse(e.at) - shiftMs : null))).toEqual(
      plain.events.map((e) => (e.at ? Date.parse(e.at) : null)),
    );
  });
});
