import { describe, expect, it } from "vitest";
import { agentEventSchema } from "@/lib/schemas/events";
import { PayloadError } from "../payload";
import { agentFixture } from "../spawn-hook";
import { cursor } from "./cursor";

const at = new Date("2026-11-29T09:30:00.000Z");
const fixture = (name: string) => agentFixture("cursor", name);
type P = Record<string, unknown>;

describe("the Cursor dialect", () => {
  it.each([
    ["session-start.json", "SessionStart", (p: P) => ({ model: p.model })],
    [
      "before-submit-prompt.json",
      "UserPromptSubmit",
      // Cursor cannot add context to a prompt: the turn must not claim it was given the principles.
      (p: P) => ({ prompt: p.prompt, context_delivered: false, agent_takes_context: false }),
    ],
    [
      "post-tool-use-shell.json",
      "PostToolUse",
      (p: P) => ({
        tool_name: "Shell",
        tool_use_id: p.tool_use_id,
        tool_input: p.tool_input,
        tool_response: JSON.parse(p.tool_output as string) as unknown,
      }),
    ],
    [
      "post-tool-use-write.json",
      "PostToolUse",
      (p: P) => ({
        tool_name: "Write",
        tool_use_id: p.tool_use_id,
        tool_input: p.tool_input,
        tool_response: { success: true },
      }),
    ],
    ["after-agent-response.json", "Stop", (p: P) => ({ response: p.text })],
    ["session-end.json", "SessionEnd", (p: P) => ({ reason: p.reason })],
  ] as const)("turns %s into a %s event the contract accepts", (name, type, fields) => {
    const payload = fixture(name);
    const { event, warnings } = cursor.build(type, payload, { id: "event-cursor-1", now: at });
    expect(warnings).toEqual([]);
    expect(agentEventSchema.safeParse(event).error).toBeUndefined();
    expect(event).toEqual({
      id: "event-cursor-1",
      type,
      session_id: payload.conversation_id,
      at: at.toISOString(),
      // The first workspace root, or the tool's cwd; transcript_path is null in the fixtures.
      cwd: (payload.cwd as string | undefined) ?? (payload.workspace_roots as string[])[0],
      agent: "cursor",
      agent_version: payload.cursor_version,
      ...fields(payload),
    });
  });

  it("keeps a tool_output that is not JSON as its text", () => {
    const { event } = cursor.build("PostToolUse", {
      ...fixture("post-tool-use-shell.json"),
      tool_output: "{not json",
    });
    expect(event).toMatchObject({ tool_response: "{not json" });
  });

  it("takes sessionStart's session_id when there is no conversation_id, and refuses a payload with neither", () => {
    const { conversation_id: _, ...payload } = fixture("session-start.json");
    expect(cursor.build("SessionStart", payload).event.session_id).toBe(payload.session_id);
    const { session_id: __, ...none } = payload;
    expect(() => cursor.build("SessionStart", none)).toThrow(
      new PayloadError("the hook payload has no conversation_id"),
    );
  });

  it("does not take stop (it has no reply and would report an empty turn)", () => {
    expect(cursor.events.stop).toBeNull();
    expect(() => cursor.build("Stop", fixture("stop.json"))).toThrow(
      new PayloadError(
        `the payload is for the hook event "stop", not "Stop"; nothing sent (check the command of that hook in Cursor's settings)`,
      ),
    );
  });

  it("answers {continue: true} to every prompt, additional_context at sessionStart, {} otherwise", () => {
    expect(JSON.parse(cursor.answer("UserPromptSubmit", "Principles"))).toEqual({ continue: true });
    expect(JSON.parse(cursor.answer("UserPromptSubmit", undefined))).toEqual({ continue: true });
    expect(JSON.parse(cursor.answer("SessionStart", "Core"))).toEqual({
      additional_context: "Core",
    });
    for (const type of ["SessionStart", "PostToolUse", "Stop", "SessionEnd", undefined] as const)
      expect(cursor.answer(type, undefined)).toBe("{}\n");
  });
});
