/**
 * The bundled hook (dist/hook.cjs), spawned the way Claude Code runs it, against a scripted
 * events server: real payloads in, events out, the spool when the server is down or slow.
 */
import { existsSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createEventsStore } from "@/test/events-server";
import { nodeStartMs } from "@/test/timers";
import { EXIT } from "../errors";
import { HOOK_EVENTS } from "./events";
import { HOOK_BUDGET_MS } from "./run";
import { defaultBaseCommand, hookCommand } from "./settings";
import {
  buildHook,
  CALLS,
  CLAUDE_FIXTURES,
  closeServers,
  lines,
  payload,
  run,
  runShell,
  sessionContext,
  setup,
} from "./spawn-hook";

/**
 * A loose bound on one hook call, start to exit: the hook's budget from its payload on, plus
 * starting Node (twice what it takes on this machine now, so a busy machine does not fail it).
 */
let WALL_LIMIT_MS = HOOK_BUDGET_MS + 600;
const UNREACHABLE = /^charter: server unreachable \(.+\); event spooled \((\d+) waiting\)$/;

afterEach(closeServers);

beforeAll(() => {
  const build = buildHook();
  expect(build.status, build.stderr).toBe(0);
  WALL_LIMIT_MS += 2 * nodeStartMs();
}, 60_000);

describe("charter hook, server up", () => {
  it("UserPromptSubmit prints the principles as Claude Code's additional context", async () => {
    const t = setup();
    const s = await t.start();
    const result = await run(
      ["hook", "UserPromptSubmit"],
      payload("user-prompt-submit.json"),
      t.env(s.port),
    );
    expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
    expect(JSON.parse(result.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: "UserPromptSubmit",
        additionalContext: "Principles for: Add a test for the d",
      },
    });
    expect(s.store.events).toHaveLength(1);
    expect(s.store.events[0]).toMatchObject({
      type: "UserPromptSubmit",
      prompt: "Add a test for the discount rounding bug and fix it, then run the suite.",
    });
  }, 20_000);

  it("every event arrives in the contract's shape, and only UserPromptSubmit prints anything", async () => {
    const t = setup();
    const s = await t.start();
    for (const [event, name] of CALLS) {
      const result = await run(["hook", event], payload(name), t.env(s.port));
      expect(result.code).toBe(EXIT.ok);
      expect(result.stderr).toBe("");
      if (event !== "UserPromptSubmit") expect(result.stdout).toBe("");
    }
    expect(s.store.events.map((e) => e.type)).toEqual(CALLS.map(([event]) => event));
    expect(s.store.events[1]).toMatchObject({
      tool_name: "Bash",
      tool_response: {
        stdout: expect.stringContaining("4 passed"),
        stderr: "",
        interrupted: false,
        isImage: false,
      },
    });
    expect(s.store.events[2]).toMatchObject({
      tool_name: "Edit",
      tool_input: { file_path: "/home/dev/shop/src/discount.ts" },
    });
    expect(s.store.events[4]).toMatchObject({ type: "SessionEnd", reason: "prompt_input_exit" });
  }, 30_000);

  it("SessionStart records the session's agent and model, and prints the server's context in Claude Code's shape", async () => {
    const t = setup();
    const s = await t.start();
    const input = payload("session-start.json");
    const result = await run(["hook", "SessionStart"], input, t.env(s.port));
    expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
    const { session_id, model, source } = JSON.parse(input) as Record<string, string>;
    expect(JSON.parse(result.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: "SessionStart",
        additionalContext: sessionContext(session_id!),
      },
    });
    expect(s.store.events).toEqual([
      expect.objectContaining({ type: "SessionStart", agent: "claude-code", model, source }),
    ]);
    expect(s.store.events[0]).not.toHaveProperty("agent_version");
  }, 20_000);

  it("Stop sends the transcript's last assistant text", async () => {
    const t = setup();
    const s = await t.start();
    const result = await run(["hook", "Stop"], payload("stop.json"), t.env(s.port));
    expect(result).toMatchObject({ code: EXIT.ok, stdout: "", stderr: "" });
    expect(s.store.events[0]).toMatchObject({
      type: "Stop",
      response:
        "Fixed: `discount()` now rounds to the nearest cent instead of flooring.\nAll 4 discount tests pass.",
      context_utilization: expect.closeTo(0.09155, 5),
    });
  }, 20_000);

  it.each(HOOK_EVENTS)(
    "the command `charter hooks install` writes for %s runs the hook, through the shell as Claude Code does",
    async (event) => {
      const t = setup();
      const s = await t.start();
      const result = await runShell(
        hookCommand(defaultBaseCommand(), event),
        payload(CLAUDE_FIXTURES[event]),
        t.env(s.port),
      );
      expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
      expect(s.store.events.map((e) => e.type)).toEqual([event]);
    },
    20_000,
  );

  it("Stop with a missing transcript sends an empty response and says so on one line", async () => {
    const t = setup();
    const s = await t.start();
    const input = JSON.stringify({
      ...JSON.parse(payload("stop.json")),
      transcript_path: path.join(t.dir, "gone.jsonl"),
    });
    const result = await run(["hook", "Stop"], input, t.env(s.port));
    expect(result.code).toBe(EXIT.ok);
    expect(lines(result.stderr)).toHaveLength(1);
    expect(result.stderr).toContain("gone.jsonl does not exist");
    expect(s.store.events[0]).toMatchObject({ type: "Stop", response: "" });
  }, 20_000);
});

describe("charter hook, server down, slow or refusing", () => {
  it("spools every event quickly when the server is down, then replays them in order exactly once", async () => {
    const store = createEventsStore();
    const t = setup({ store });
    const server = await t.start();
    const { port } = server;
    await t.stop(server);

    for (const [index, [event, name]] of CALLS.entries()) {
      const result = await run(["hook", event], payload(name), t.env(port));
      expect(result.code).toBe(EXIT.ok);
      expect(result.stdout).toBe("");
      expect(result.ms).toBeLessThan(WALL_LIMIT_MS);
      expect(lines(result.stderr)).toHaveLength(1);
      expect(result.stderr.trim()).toMatch(UNREACHABLE);
      expect(UNREACHABLE.exec(result.stderr.trim())![1]).toBe(String(index + 1));
    }
    const spooledIds = t.spooledIds();
    expect(spooledIds).toHaveLength(CALLS.length);
    expect(readdirSync(t.spoolDir).filter((n) => n.startsWith("."))).toEqual([]);

    const s = await t.start(port);
    const result = await run(["hook", "SessionEnd"], payload("session-end.json"), t.env(port));
    expect(result).toMatchObject({ code: EXIT.ok, stdout: "", stderr: "" });
    expect(t.spooled()).toEqual([]);
    const ids = s.store.events.map((e) => e.id);
    expect(ids.slice(0, CALLS.length)).toEqual(spooledIds);
    expect(s.store.events.map((e) => e.type)).toEqual([
      ...CALLS.map(([event]) => event),
      "SessionEnd",
    ]);
    expect(new Set(s.store.arrivals).size).toBe(s.store.arrivals.length);
    expect(ids).toHaveLength(CALLS.length + 1);
  }, 60_000);

  it("hooks running at once (parallel tool calls) share the spool without losing or doubling an event", async () => {
    const store = createEventsStore();
    const t = setup({ store });
    const server = await t.start();
    const { port } = server;
    await t.stop(server);
    for (const [event, name] of CALLS) await run(["hook", event], payload(name), t.env(port));
    const spooledIds = t.spooledIds();

    const s = await t.start(port);
    const parallel = await Promise.all(
      [1, 2, 3, 4].map(() =>
        run(["hook", "PostToolUse"], payload("post-tool-use-bash.json"), t.env(port)),
      ),
    );
    for (const result of parallel) {
      expect(result.code).toBe(EXIT.ok);
      expect(result.ms).toBeLessThan(WALL_LIMIT_MS);
      expect(lines(result.stderr).length).toBeLessThanOrEqual(1);
    }
    expect(await run(["spool", "flush"], "", t.env(port))).toMatchObject({
      code: EXIT.ok,
      stdout: expect.stringMatching(/^flushed \d+, 0 left, 0 rejected\n$/),
    });
    const ids = s.store.events.map((e) => e.id);
    expect(ids.slice(0, CALLS.length)).toEqual(spooledIds);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(CALLS.length + 4);
  }, 60_000);

  it("spool flush reports what it sent and exits 1 while the server is down", async () => {
    const store = createEventsStore();
    const t = setup({ store });
    const server = await t.start();
    const { port } = server;
    await t.stop(server);
    for (const [event, name] of CALLS.slice(0, 2))
      await run(["hook", event], payload(name), t.env(port));

    const down = await run(["spool", "flush"], "", t.env(port));
    expect(down.code).toBe(EXIT.invalid);
    expect(down.stdout).toBe("flushed 0, 2 left, 0 rejected\n");
    expect(lines(down.stderr)).toEqual([expect.stringMatching(/^charter: server unreachable \(/)]);

    const s = await t.start(port);
    const up = await run(["spool", "flush"], "", t.env(port));
    expect(up).toMatchObject({
      code: EXIT.ok,
      stdout: "flushed 2, 0 left, 0 rejected\n",
      stderr: "",
    });
    expect(s.store.events.map((e) => e.type)).toEqual(["UserPromptSubmit", "PostToolUse"]);
    expect(t.spooled()).toEqual([]);

    expect(await run(["spool", "flush"], "", t.env(port))).toMatchObject({
      code: EXIT.ok,
      stdout: "flushed 0, 0 left, 0 rejected\n",
    });
  }, 60_000);

  it("spools within the budget when the server is slow, and the replay does not count the event twice", async () => {
    const t = setup();
    const s = await t.start();
    s.behaviour.delayMs = 3_000;
    const slow = await run(
      ["hook", "UserPromptSubmit"],
      payload("user-prompt-submit.json"),
      t.env(s.port),
    );
    expect(slow.code).toBe(EXIT.ok);
    expect(slow.ms).toBeLessThan(WALL_LIMIT_MS);
    expect(slow.stdout).toBe("");
    expect(slow.stderr.trim()).toMatch(
      /^charter: server unreachable \(no answer within \d+ ms\); event spooled \(1 waiting\)$/,
    );
    // The slow request landed: the server has the event although the hook gave up on it.
    expect(s.store.events).toHaveLength(1);
    const [landed] = t.spooledIds();
    expect(s.store.events[0]!.id).toBe(landed);

    s.behaviour.delayMs = 0;
    const next = await run(["hook", "Stop"], payload("stop.json"), t.env(s.port));
    expect(next).toMatchObject({ code: EXIT.ok, stderr: "" });
    expect(t.spooled()).toEqual([]);
    expect(s.store.arrivals.filter((id) => id === landed)).toHaveLength(2);
    expect(s.store.events.map((e) => e.type)).toEqual(["UserPromptSubmit", "Stop"]);
  }, 60_000);
});

describe("charter hook, usage", () => {
  const env = {
    CHARTER_URL: "http://127.0.0.1:9",
    CHARTER_SPOOL_DIR: path.join(os.tmpdir(), "charter-hook-unused"),
  };

  // Claude Code reads exit 2 from a hook as "block the agent": no event name may do that.
  it.each(["PreToolUse", "stop", "SubagentStop", "Notification", "PreCompact"])(
    "ignores the event %s: exit 0, one line, nothing sent",
    async (name) => {
      const t = setup();
      const s = await t.start();
      const result = await run(
        ["hook", name],
        payload("stop.json", { hook_event_name: name }),
        t.env(s.port),
      );
      expect(result).toMatchObject({ code: EXIT.ok, stdout: "" });
      expect(lines(result.stderr)).toEqual([
        `charter: ignoring the hook event "${name}": Charter takes ${HOOK_EVENTS.join(", ")}`,
      ]);
      expect(s.store.requests).toBe(0);
      expect(existsSync(t.spoolDir)).toBe(false);
    },
    20_000,
  );

  it.each([
    ["PostToolUse", "stop.json", "Stop"],
    ["Stop", "stop.json", "SubagentStop"],
    ["UserPromptSubmit", "user-prompt-submit.json", "PreToolUse"],
  ])(
    "hook %s with a %s payload naming %s: exit 0, one line, nothing sent",
    async (argument, fixture, named) => {
      const t = setup();
      const s = await t.start();
      const result = await run(
        ["hook", argument],
        payload(fixture, { hook_event_name: named }),
        t.env(s.port),
      );
      expect(result).toMatchObject({ code: EXIT.ok, stdout: "" });
      expect(lines(result.stderr)).toEqual([
        `charter: the payload is for the hook event "${named}", not "${argument}"; nothing sent (check the command of that hook in Claude Code's settings)`,
      ]);
      expect(s.store.requests).toBe(0);
      expect(existsSync(t.spoolDir)).toBe(false);
    },
    20_000,
  );

  it.each([
    [
      "not json",
      "charter: the hook payload on stdin is not valid JSON (Unexpected token 'o', \"not json\" is not valid JSON)",
    ],
    ["", "charter: no hook payload on stdin (Claude Code sends one as JSON)"],
    ["[]", "charter: the hook payload on stdin is not a JSON object"],
    ["{}", "charter: the hook payload has no session_id"],
  ])("exits 0 on the payload %j, with one line", async (input, line) => {
    const result = await run(["hook", "Stop"], input, env);
    expect(result).toMatchObject({ code: EXIT.ok, stdout: "" });
    expect(lines(result.stderr)).toEqual([line]);
  });

  it.each([[["hook", "--help"]], [["spool", "--help"]], [["hook", "Stop", "-h"]]])(
    "%j prints usage",
    async (args) => {
      const result = await run(args, "", env);
      expect(result.code).toBe(EXIT.ok);
      expect(result.stdout).toMatch(/^Usage: charter (hook|spool)/);
    },
  );

  it.each([[["spool"]], [["spool", "drain"]], [[]]])("%j is a usage error", async (args) => {
    expect((await run(args, "", env)).code).toBe(EXIT.usage);
  });

  it.each([
    [["hook"], "charter: missing the hook event (run with --help for usage)"],
    [["hook", "Stop", "extra"], 'charter: unexpected argument "extra" (run with --help for usage)'],
  ])("%j is a command-line mistake: exit 1, not 2, with one line", async (args, line) => {
    const result = await run(args, payload("stop.json"), env);
    expect(result).toMatchObject({ code: EXIT.invalid, stdout: "" });
    expect(lines(result.stderr)).toEqual([line]);
  });
});
