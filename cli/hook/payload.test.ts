import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  agentEventSchema,
  EVENT_TYPES,
  MAX_TOOL_OUTPUT,
  postToolUseSchema,
  sessionEndSchema,
  stopSchema,
  userPromptSubmitSchema,
} from "@/lib/schemas/events";
import { CONTEXT_WINDOW_TOKENS as IMPORT_CONTEXT_WINDOW_TOKENS } from "@/lib/transcripts/convert";
import { DEFAULT_URL, resolveHookConfig } from "./config";
import {
  CONTEXT_WINDOW_TOKENS,
  HOOK_EVENTS,
  HOOK_LIMITS,
  HOOK_MAX_TOOL_OUTPUT,
  type HookEventName,
} from "./events";
import { claude } from "./dialects/claude";
import { clipDeep, parsePayload, PayloadError } from "./payload";
import { unanswered } from "./spool";
import { fallbackSpoolDir } from "./spool-dirs";
import { readLastReply } from "./transcript";

const FIXTURES = path.join(import.meta.dirname, "fixtures");
/** Claude Code's payload as the hook turns it into an event. */
const buildEvent = (type: HookEventName, payload: Record<string, unknown>) =>
  claude.build(type, payload);
const TRANSCRIPT = path.join(FIXTURES, "transcript.jsonl");
const fixture = (name: string) =>
  JSON.parse(readFileSync(path.join(FIXTURES, name), "utf8")) as Record<string, unknown>;
const tmp = () => mkdtempSync(path.join(os.tmpdir(), "charter-hook-"));

describe("the hook's copy of the event contract", () => {
  it("measures context as transcript import does", () => {
    expect(CONTEXT_WINDOW_TOKENS).toBe(IMPORT_CONTEXT_WINDOW_TOKENS);
  });

  it("names the schema's events", () => {
    expect([...HOOK_EVENTS]).toEqual([...EVENT_TYPES]);
  });

  it("marks a spooled prompt the way the schema reads it", () => {
    const { event } = buildEvent("UserPromptSubmit", fixture("user-prompt-submit.json"));
    expect(userPromptSubmitSchema.parse(unanswered(event))).toMatchObject({
      id: event.id,
      context_delivered: false,
    });
  });

  it("clips to the schema's limits", () => {
    expect(HOOK_MAX_TOOL_OUTPUT).toBe(MAX_TOOL_OUTPUT);
    expect(HOOK_LIMITS.prompt).toBe(userPromptSubmitSchema.shape.prompt.maxLength);
    expect(HOOK_LIMITS.response).toBe(stopSchema.shape.response.unwrap().maxLength);
    expect(HOOK_LIMITS.reason).toBe(sessionEndSchema.shape.reason.unwrap().maxLength);
    expect(HOOK_LIMITS.tool_name).toBe(postToolUseSchema.shape.tool_name.maxLength);
    expect(HOOK_LIMITS.tool_use_id).toBe(postToolUseSchema.shape.tool_use_id.unwrap().maxLength);
    expect(HOOK_LIMITS.session_id).toBe(postToolUseSchema.shape.session_id.maxLength);
    expect(HOOK_LIMITS.path).toBe(postToolUseSchema.shape.cwd.unwrap().maxLength);
  });
});

describe("buildEvent", () => {
  it.each([
    ["UserPromptSubmit", "user-prompt-submit.json"],
    ["PostToolUse", "post-tool-use-bash.json"],
    ["PostToolUse", "post-tool-use-edit.json"],
    ["Stop", "stop.json"],
    ["SessionEnd", "session-end.json"],
  ] as [HookEventName, string][])(
    "turns the %s fixture %s into an event the contract accepts",
    (type, name) => {
      const payload: Record<string, unknown> = { ...fixture(name), transcript_path: TRANSCRIPT };
      const { event } = buildEvent(type, payload);
      expect(agentEventSchema.safeParse(event).error).toBeUndefined();
      expect(event).toMatchObject({
        type,
        session_id: payload.session_id,
        cwd: payload.cwd,
        transcript_path: TRANSCRIPT,
      });
      expect(event.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Date.now() - Date.parse(event.at!)).toBeLessThan(5_000);
    },
  );

  it("keeps the tool's input and output as Claude Code sent them", () => {
    const payload = fixture("post-tool-use-bash.json");
    const { event } = buildEvent("PostToolUse", payload);
    expect(event).toMatchObject({
      tool_name: "Bash",
      tool_use_id: payload.tool_use_id,
      tool_input: payload.tool_input,
      tool_response: payload.tool_response,
    });
  });

  it("gives each event a fresh id", () => {
    const payload = fixture("session-end.json");
    expect(buildEvent("SessionEnd", payload).event.id).not.toBe(
      buildEvent("SessionEnd", payload).event.id,
    );
  });

  it("reports the last assistant message of the transcript on Stop", () => {
    const { event, warnings } = buildEvent("Stop", {
      ...fixture("stop.json"),
      transcript_path: TRANSCRIPT,
    });
    expect(event).toMatchObject({
      response:
        "Fixed: `discount()` now rounds to the nearest cent instead of flooring.\nAll 4 discount tests pass.",
      context_utilization: (6 + 1214 + 17090) / CONTEXT_WINDOW_TOKENS,
    });
    expect(warnings).toEqual([]);
  });

  it("prefers the payload's last_assistant_message, which cannot lag behind like the transcript", () => {
    const { event } = buildEvent("Stop", {
      ...fixture("stop.json"),
      transcript_path: TRANSCRIPT,
      last_assistant_message: "Done.",
    });
    expect(event).toMatchObject({ response: "Done." });
  });

  it("sends an empty response and one warning when the transcript is missing", () => {
    const { event, warnings } = buildEvent("Stop", {
      ...fixture("stop.json"),
      transcript_path: "/nonexistent/t.jsonl",
    });
    expect(event).toMatchObject({ response: "" });
    expect(event).not.toHaveProperty("context_utilization");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("/nonexistent/t.jsonl does not exist");
  });

  it("drops fields the contract does not know (its objects are strict)", () => {
    const { event } = buildEvent("Stop", {
      ...fixture("stop.json"),
      transcript_path: TRANSCRIPT,
      stop_hook_active: true,
      permission_mode: "plan",
    });
    expect(event).not.toHaveProperty("stop_hook_active");
    expect(event).not.toHaveProperty("permission_mode");
    expect(event).not.toHaveProperty("hook_event_name");
  });

  it("clips what the contract would refuse instead of losing the event", () => {
    const long = "x".repeat(HOOK_LIMITS.prompt + 10);
    const { event } = buildEvent("UserPromptSubmit", { session_id: "s-123456", prompt: long });
    expect(agentEventSchema.safeParse(event).success).toBe(true);
  });

  it.each([
    [
      "Stop",
      { hook_event_name: "SubagentStop" },
      'the payload is for the hook event "SubagentStop", not "Stop"; nothing sent (check the command of that hook in Claude Code\'s settings)',
    ],
    [
      "PostToolUse",
      { hook_event_name: "PreToolUse" },
      'the payload is for the hook event "PreToolUse", not "PostToolUse"; nothing sent (check the command of that hook in Claude Code\'s settings)',
    ],
    [
      "SessionEnd",
      { hook_event_name: 7 },
      'the payload is for the hook event a number, not "SessionEnd"; nothing sent (check the command of that hook in Claude Code\'s settings)',
    ],
  ] as [HookEventName, Record<string, unknown>, string][])(
    "refuses a %s payload that names another event (%j)",
    (type, changes, message) => {
      expect(() => buildEvent(type, { session_id: "s-123456", ...changes })).toThrow(
        new PayloadError(message),
      );
    },
  );

  it("takes a payload without hook_event_name as the command's event", () => {
    expect(buildEvent("SessionEnd", { session_id: "s-123456" }).event).toMatchObject({
      type: "SessionEnd",
    });
  });

  it("refuses a payload without a session", () => {
    expect(() => buildEvent("Stop", { prompt: "x" })).toThrow(PayloadError);
  });
});

describe("parsePayload", () => {
  it.each([[""], ["  \n"], ["not json"], ["[1, 2]"], ["42"]])("refuses %j", (raw) => {
    expect(() => parsePayload(raw)).toThrow(PayloadError);
  });
});

describe("clipDeep", () => {
  it("keeps the head and tail of long strings, anywhere in the value", () => {
    const long = `${"a".repeat(MAX_TOOL_OUTPUT)}Exit code: 1`;
    const clipped = clipDeep({ stdout: long, nested: [long], n: 3, ok: true }) as {
      stdout: string;
      nested: string[];
      n: number;
      ok: boolean;
    };
    expect(clipped.stdout.length).toBeLessThan(MAX_TOOL_OUTPUT + 100);
    expect(clipped.stdout.startsWith("aaaa")).toBe(true);
    expect(clipped.stdout.endsWith("Exit code: 1")).toBe(true);
    expect(clipped.nested[0]).toBe(clipped.stdout);
    expect(clipped).toMatchObject({ n: 3, ok: true });
  });

  it("leaves short values alone", () => {
    const value = { a: "short", b: [1, null, { c: "d" }] };
    expect(clipDeep(value)).toEqual(value);
  });
});

describe("readLastReply", () => {
  const write = (lines: unknown[]) => {
    const file = path.join(tmp(), "t.jsonl");
    writeFileSync(
      file,
      lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n"),
    );
    return file;
  };
  const assistant = (id: string, content: unknown, usage?: unknown) => ({
    type: "assistant",
    message: { id, role: "assistant", content, ...(usage ? { usage } : {}) },
  });
  const user = (content: unknown) => ({ type: "user", message: { role: "user", content } });

  it("joins the text blocks of the last message, across its lines, skipping tool_use and thinking", () => {
    const file = write([
      user("hi"),
      assistant("m1", [{ type: "text", text: "old" }]),
      user([{ type: "tool_result", tool_use_id: "t", content: "ok" }]),
      assistant("m2", [{ type: "thinking", thinking: "hmm" }]),
      assistant("m2", [
        { type: "text", text: "one" },
        { type: "tool_use", id: "t2", name: "Read", input: {} },
      ]),
      assistant("m2", [{ type: "text", text: "two" }]),
    ]);
    expect(readLastReply(file).text).toBe("one\ntwo");
  });

  it("takes a string content as the text", () => {
    expect(readLastReply(write([user("hi"), assistant("m1", "plain")])).text).toBe("plain");
  });

  it("caps context utilization at 1 and leaves it out without usage", () => {
    expect(
      readLastReply(
        write([assistant("m", "x", { input_tokens: 150_000, cache_read_input_tokens: 90_000 })]),
      ).contextUtilization,
    ).toBe(1);
    expect(readLastReply(write([assistant("m", "x")]))).not.toHaveProperty("contextUtilization");
  });

  it("skips a half-written last line and sidechain lines", () => {
    const file = write([
      assistant("m1", "kept"),
      { ...assistant("m9", "sidechain"), isSidechain: true },
      '{"type":"assistant","mess',
    ]);
    expect(readLastReply(file).text).toBe("kept");
  });

  it("does not report the previous turn's reply when the transcript has not caught up", () => {
    const reply = readLastReply(
      write([user("first"), assistant("m1", "first reply"), user("second")]),
    );
    expect(reply.text).toBe("");
    expect(reply.problem).toContain("no reply to the last prompt");
  });

  it("reads lines longer than its read chunk and transcripts of many lines", () => {
    const big = "y".repeat(600_000);
    const lines = [];
    for (let i = 0; i < 2_000; i++)
      lines.push(
        user(`prompt ${i}`),
        assistant(`m${i}`, [{ type: "text", text: i === 1_999 ? big : `reply ${i}` }]),
      );
    expect(readLastReply(write(lines)).text).toBe(big);
  });
});

describe("resolveHookConfig", () => {
  it("defaults to the local server and the XDG-style spool directory", () => {
    const home = tmp();
    expect(resolveHookConfig({}, home)).toEqual({
      url: DEFAULT_URL,
      urlFrom: "default",
      file: path.join(home, ".config", "charter", "hook.json"),
      apiKey: undefined,
      spoolDir: path.join(home, ".local", "state", "charter", "spool"),
      fallbackSpoolDir: fallbackSpoolDir(os.tmpdir()),
    });
  });

  it("reads the config file, and the environment wins over it", () => {
    const home = tmp();
    const file = path.join(home, "hook.json");
    writeFileSync(file, JSON.stringify({ url: "https://charter.example/", api_key: "from-file" }));
    expect(resolveHookConfig({ CHARTER_HOOK_CONFIG: file }, home)).toMatchObject({
      url: "https://charter.example",
      urlFrom: "file",
      file,
      apiKey: "from-file",
    });
    expect(
      resolveHookConfig(
        {
          CHARTER_HOOK_CONFIG: file,
          CHARTER_URL: "http://10.0.0.2:3000",
          CHARTER_API_KEY: "from-env",
        },
        home,
      ),
    ).toMatchObject({
      url: "http://10.0.0.2:3000",
      apiKey: "from-env",
    });
  });

  it("warns about a broken config file and goes on with the defaults", () => {
    const home = tmp();
    const file = path.join(home, "hook.json");
    writeFileSync(file, "{url:");
    expect(resolveHookConfig({ CHARTER_HOOK_CONFIG: file }, home)).toMatchObject({
      url: DEFAULT_URL,
      warning: `${file} is not valid JSON`,
    });
  });
});
