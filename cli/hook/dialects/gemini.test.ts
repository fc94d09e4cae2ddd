import { describe, expect, it } from "vitest";
import { agentEventSchema } from "@/lib/schemas/events";
import { PayloadError } from "../payload";
import { agentFixture } from "../spawn-hook";
import { gemini } from "./gemini";

const at = new Date("2026-11-29T09:20:31.000Z");
const fixture = (name: string) => agentFixture("gemini", name);
type P = Record<string, unknown>;

describe("the Gemini CLI dialect", () => {
  it.each([
    ["session-start.json", "SessionStart", (p: P) => ({ source: p.source })],
    ["before-agent.json", "UserPromptSubmit", (p: P) => ({ prompt: p.prompt })],
    [
      "after-tool-replace.json",
      "PostToolUse",
      (p: P) => ({
        tool_name: "replace",
        tool_input: p.tool_input,
        tool_response: p.tool_response,
      }),
    ],
    [
      "after-tool-shell.json",
      "PostToolUse",
      (p: P) => ({
        tool_name: "run_shell_command",
        tool_input: p.tool_input,
        tool_response: p.tool_response,
      }),
    ],
    ["after-agent.json", "Stop", (p: P) => ({ response: p.prompt_response })],
    ["session-end.json", "SessionEnd", (p: P) => ({ reason: p.reason })],
  ] as const)("turns %s into a %s event the contract accepts", (name, type, fields) => {
    const payload = fixture(name);
    const { event, warnings } = gemini.build(type, payload, { id: "event-gemini-1", now: at });
    expect(warnings).toEqual([]);
    expect(agentEventSchema.safeParse(event).error).toBeUndefined();
    expect(event).toEqual({
      id: "event-gemini-1",
      type,
      session_id: payload.session_id,
      at: at.toISOString(),
      cwd: payload.cwd,
      transcript_path: payload.transcript_path,
      agent: "gemini-cli",
      ...fields(payload),
    });
  });

  it("takes Gemini CLI's event names, and Charter's only as Gemini's own", () => {
    expect(gemini.events).toMatchObject({
      SessionStart: "SessionStart",
      BeforeAgent: "UserPromptSubmit",
      AfterTool: "PostToolUse",
      AfterAgent: "Stop",
      SessionEnd: "SessionEnd",
      BeforeTool: null,
    });
    expect(() =>
      gemini.build("UserPromptSubmit", {
        ...fixture("before-agent.json"),
        hook_event_name: "BeforeModel",
      }),
    ).toThrow(
      new PayloadError(
        `the payload is for the hook event "BeforeModel", not "UserPromptSubmit"; nothing sent (check the command of that hook in Gemini CLI's settings)`,
      ),
    );
  });

  it("reports an AfterAgent without its reply with an empty response and a warning", () => {
    const { prompt_response: _, ...payload } = fixture("after-agent.json");
    const { event, warnings } = gemini.build("Stop", payload);
    expect(event).toMatchObject({ type: "Stop", response: "" });
    expect(warnings).toHaveLength(1);
  });

  it("answers with hookSpecificOutput under Gemini's event name, and {} with nothing to add", () => {
    expect(JSON.parse(gemini.answer("UserPromptSubmit", "Principles"))).toEqual({
      hookSpecificOutput: { hookEventName: "BeforeAgent", additionalContext: "Principles" },
    });
    expect(JSON.parse(gemini.answer("SessionStart", "Core"))).toEqual({
      hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "Core" },
    });
    for (const type of [
      "UserPromptSubmit",
      "PostToolUse",
      "Stop",
      "SessionEnd",
      undefined,
    ] as const)
      expect(gemini.answer(type, undefined)).toBe("{}\n");
    expect(gemini.answer("Stop", "not for a stop")).toBe("{}\n");
  });
});
