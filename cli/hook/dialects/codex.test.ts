import { describe, expect, it } from "vitest";
import { agentEventSchema } from "@/lib/schemas/events";
import type { HookEventName } from "../events";
import { PayloadError } from "../payload";
import { agentFixture } from "../spawn-hook";
import { codex } from "./codex";

const at = new Date("2026-11-29T09:14:03.000Z");
const fixture = (name: string) => agentFixture("codex", name);

describe("the Codex dialect", () => {
  it.each([
    [
      "session-start.json",
      "SessionStart",
      (p: Record<string, unknown>) => ({ source: p.source, model: p.model }),
    ],
    [
      "user-prompt-submit.json",
      "UserPromptSubmit",
      (p: Record<string, unknown>) => ({ prompt: p.prompt }),
    ],
    [
      "post-tool-use-bash.json",
      "PostToolUse",
      (p: Record<string, unknown>) => ({
        tool_name: "Bash",
        tool_use_id: p.tool_use_id,
        tool_input: p.tool_input,
        tool_response: p.tool_response,
      }),
    ],
    [
      "post-tool-use-apply-patch.json",
      "PostToolUse",
      (p: Record<string, unknown>) => ({
        tool_name: "apply_patch",
        tool_use_id: p.tool_use_id,
        tool_input: p.tool_input,
        tool_response: p.tool_response,
      }),
    ],
    ["stop.json", "Stop", (p: Record<string, unknown>) => ({ response: p.last_assistant_message })],
  ] as const)("turns %s into a %s event the contract accepts", (name, type, fields) => {
    const payload = fixture(name);
    const { event, warnings } = codex.build(type, payload, { id: "event-codex-1", now: at });
    expect(warnings).toEqual([]);
    expect(agentEventSchema.safeParse(event).error).toBeUndefined();
    expect(event).toEqual({
      id: "event-codex-1",
      type,
      session_id: payload.session_id,
      at: at.toISOString(),
      cwd: payload.cwd,
      transcript_path: payload.transcript_path,
      agent: "codex",
      ...fields(payload),
    });
  });

  it("reports a Stop whose reply is null with an empty response and a warning, without reading the transcript", () => {
    const { event, warnings } = codex.build("Stop", {
      ...fixture("stop.json"),
      last_assistant_message: null,
      transcript_path: "/nonexistent/rollout.jsonl",
    });
    expect(event).toMatchObject({ type: "Stop", response: "" });
    expect(warnings).toEqual([
      "the Stop payload has no last_assistant_message; the turn is reported with an empty response",
    ]);
  });

  it("leaves out a null transcript path", () => {
    const { event } = codex.build("UserPromptSubmit", {
      ...fixture("user-prompt-submit.json"),
      transcript_path: null,
    });
    expect(event).not.toHaveProperty("transcript_path");
  });

  it.each([
    ["Stop", "SubagentStop"],
    ["PostToolUse", "PreToolUse"],
    ["UserPromptSubmit", "Stop"],
  ] as [HookEventName, string][])("refuses a %s call with a payload for %s", (type, named) => {
    expect(() => codex.build(type, { ...fixture("stop.json"), hook_event_name: named })).toThrow(
      new PayloadError(
        `the payload is for the hook event "${named}", not "${type}"; nothing sent (check the command of that hook in Codex's settings)`,
      ),
    );
  });

  it("refuses a payload without session_id", () => {
    const { session_id: _, ...payload } = fixture("stop.json");
    expect(() => codex.build("Stop", payload)).toThrow("the hook payload has no session_id");
  });

  it("answers Claude Code's shape with the context, and nothing without it", () => {
    for (const type of ["UserPromptSubmit", "SessionStart"] as const)
      expect(JSON.parse(codex.answer(type, "Principles"))).toEqual({
        hookSpecificOutput: { hookEventName: type, additionalContext: "Principles" },
      });
    expect(codex.answer("UserPromptSubmit", undefined)).toBe("");
    expect(codex.answer("Stop", "ignored")).toBe("");
    expect(codex.answer(undefined, undefined)).toBe("");
  });
});
