import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { KNOWN_AGENTS } from "@/lib/schemas/agents";
import { agentEventSchema } from "@/lib/schemas/events";
import { EXIT } from "../../errors";
import { HOOK_EVENTS } from "../events";
import { runHook, type Io } from "../run";
import { agentFixture } from "../spawn-hook";
import { DIALECTS, detectDialect, resolveEvent, type Dialect } from ".";

const claudeFixture = (name: string) =>
  JSON.parse(
    readFileSync(path.join(import.meta.dirname, "..", "fixtures", name), "utf8"),
  ) as Record<string, unknown>;

describe("the dialects", () => {
  it("each names a known agent, its own", () => {
    const agents = Object.values(DIALECTS).map((d) => d.agent);
    expect(new Set(agents).size).toBe(agents.length);
    for (const agent of agents) expect(KNOWN_AGENTS).toContain(agent);
  });

  it("each maps its events onto Charter's only", () => {
    for (const dialect of Object.values(DIALECTS))
      for (const type of Object.values(dialect.events))
        if (type !== null) expect(HOOK_EVENTS).toContain(type);
  });

  it("Claude Code's is the hook as it always was, naming the agent", () => {
    const { event } = DIALECTS.claude.build(
      "UserPromptSubmit",
      claudeFixture("user-prompt-submit.json"),
    );
    expect(agentEventSchema.safeParse(event).error).toBeUndefined();
    expect(event).toMatchObject({ type: "UserPromptSubmit", agent: "claude-code" });
    expect(event).not.toHaveProperty("agent_version");
    expect(DIALECTS.claude.answer("UserPromptSubmit", undefined)).toBe("");
    for (const type of ["UserPromptSubmit", "SessionStart"] as const)
      expect(JSON.parse(DIALECTS.claude.answer(type, "Principles"))).toEqual({
        hookSpecificOutput: { hookEventName: type, additionalContext: "Principles" },
      });
  });
});

describe("detectDialect", () => {
  it.each([
    ["Claude Code's payloads", claudeFixture("stop.json"), "claude"],
    ["a payload with no event name", { session_id: "s" }, "claude"],
    ["Codex's (turn_id)", agentFixture("codex", "stop.json"), "codex"],
    [
      "Codex's SessionStart (no turn_id: as Claude Code's)",
      agentFixture("codex", "session-start.json"),
      "claude",
    ],
    ["Gemini CLI's BeforeAgent", agentFixture("gemini", "before-agent.json"), "gemini"],
    ["Gemini CLI's AfterTool", agentFixture("gemini", "after-tool-shell.json"), "gemini"],
    [
      "Gemini CLI's SessionEnd (Claude Code's name, Gemini's timestamp)",
      agentFixture("gemini", "session-end.json"),
      "gemini",
    ],
    ["Cursor's (cursor_version)", agentFixture("cursor", "session-end.json"), "cursor"],
    [
      "Cursor's camelCase event without cursor_version",
      { ...agentFixture("cursor", "before-submit-prompt.json"), cursor_version: undefined },
      "cursor",
    ],
  ])("tells %s", (_, payload, name) => {
    expect(detectDialect(payload).name).toBe(name);
  });
});

describe("resolveEvent", () => {
  it.each([
    ["UserPromptSubmit", undefined, { kind: "take", type: "UserPromptSubmit" }],
    [
      "BeforeAgent",
      undefined,
      { kind: "take", type: "UserPromptSubmit", dialect: DIALECTS.gemini },
    ],
    ["AfterAgent", undefined, { kind: "take", type: "Stop", dialect: DIALECTS.gemini }],
    [
      "beforeSubmitPrompt",
      undefined,
      { kind: "take", type: "UserPromptSubmit", dialect: DIALECTS.cursor },
    ],
    ["afterAgentResponse", undefined, { kind: "take", type: "Stop", dialect: DIALECTS.cursor }],
    ["Stop", DIALECTS.cursor, { kind: "take", type: "Stop", dialect: DIALECTS.cursor }],
    ["AfterTool", DIALECTS.gemini, { kind: "take", type: "PostToolUse", dialect: DIALECTS.gemini }],
    [
      "SessionStart",
      DIALECTS.codex,
      { kind: "take", type: "SessionStart", dialect: DIALECTS.codex },
    ],
  ] as [string, Dialect | undefined, unknown][])("takes %s (agent %s)", (name, dialect, call) => {
    expect(resolveEvent(name, dialect)).toEqual(call);
  });

  it.each([
    // Without --agent, every name that is not taken is ignored as it always was, with the same line.
    ["stop", undefined, /^ignoring the hook event "stop": Charter takes SessionStart, /],
    ["PreToolUse", undefined, /^ignoring the hook event "PreToolUse": Charter takes /],
    ["constructor", undefined, /^ignoring the hook event "constructor": Charter takes /],
    ["stop", DIALECTS.cursor, /^ignoring Cursor's hook event "stop": Charter takes sessionStart, /],
    ["BeforeModel", DIALECTS.gemini, /^ignoring Gemini CLI's hook event "BeforeModel": /],
    [
      "beforeSubmitPrompt",
      DIALECTS.codex,
      /^ignoring the hook event "beforeSubmitPrompt": Codex's events/,
    ],
  ] as [string, Dialect | undefined, RegExp][])("ignores %s (agent %s)", (name, dialect, line) => {
    const call = resolveEvent(name, dialect);
    expect(call).toMatchObject({ kind: "ignore", line: expect.stringMatching(line) });
    expect(call.dialect).toBe(dialect);
  });
});

describe("a malformed payload, in every dialect", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "charter-dialects-"));
  // Port 9 (discard) is closed: nothing here may reach the network, or the test would show a send.
  const config = {
    url: "http://127.0.0.1:9",
    apiKey: undefined,
    spoolDir: path.join(dir, "spool"),
    fallbackSpoolDir: path.join(dir, "fallback"),
  };
  const capture = () => {
    const said = { out: "", err: [] as string[] };
    const io: Io = {
      out: (text) => void (said.out += text),
      err: (line) => void said.err.push(line),
    };
    return { said, io };
  };

  it.each(
    Object.values(DIALECTS).flatMap((dialect) =>
      ["", "not json", "[]", "{}", '{"hook_event_name": 3}'].map(
        (input) => [dialect.name, input, dialect] as const,
      ),
    ),
  )("%s, %j: exit 0, one line, the agent's neutral answer", async (_, input, dialect) => {
    const { said, io } = capture();
    const type = "UserPromptSubmit";
    expect(await runHook(type, input, { config, dialect, io })).toBe(EXIT.ok);
    expect(said.err).toHaveLength(1);
    expect(said.out).toBe(dialect.answer(type, undefined));
  });

  it("with no --agent, answers nothing before it knows the agent", async () => {
    const { said, io } = capture();
    expect(await runHook("Stop", "not json", { config, io })).toBe(EXIT.ok);
    expect(said.out).toBe("");
  });
});
