/**
 * What the bundled hook does with each answer of the server, and with a session that
 * outlives the server: nothing is dropped, nothing counted twice, a poison event holds
 * up nothing, a refused key is said once.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createEventsStore } from "@/test/events-server";
import { EXIT } from "../errors";
import { REASON_SUFFIX } from "./spool";
import { buildHook, closeServers, lines, payload, run, setup } from "./spawn-hook";

afterEach(closeServers);

beforeAll(() => {
  const build = buildHook();
  expect(build.status, build.stderr).toBe(0);
}, 60_000);

const PROMPT = "Add a test for the discount rounding bug and fix it, then run the suite.";
const ONCE = "said once until an event is delivered";
const endpoint = (port: number) => `http://127.0.0.1:${port}/api/v1/events`;

describe("charter hook, each answer of the server", () => {
  it.each([
    [
      500,
      (n: number) =>
        `charter: server unreachable (HTTP 500: Scripted 500.); event spooled (${n} waiting)`,
    ],
    [
      502,
      (n: number) =>
        `charter: server unreachable (HTTP 502: Scripted 502.); event spooled (${n} waiting)`,
    ],
    [
      503,
      (n: number) =>
        `charter: server unreachable (HTTP 503: Scripted 503.); event spooled (${n} waiting)`,
    ],
    [
      408,
      (n: number) =>
        `charter: server unreachable (HTTP 408: Scripted 408.); event spooled (${n} waiting)`,
    ],
    [
      429,
      (n: number) =>
        `charter: server unreachable (HTTP 429: Scripted 429.); event spooled (${n} waiting)`,
    ],
  ])(
    "HTTP %i: spooled, said by every hook",
    async (status, line) => {
      const t = setup();
      const s = await t.start();
      s.behaviour.status = status;
      for (const waiting of [1, 2]) {
        const result = await run(
          ["hook", "PostToolUse"],
          payload("post-tool-use-bash.json"),
          t.env(s.port),
        );
        expect(result).toMatchObject({ code: EXIT.ok, stdout: "" });
        expect(lines(result.stderr)).toEqual([line(waiting)]);
      }
      expect(t.spooled()).toHaveLength(2);
    },
    20_000,
  );

  it.each([
    [
      401,
      "the server refused the API key (HTTP 401: Scripted 401.); set CHARTER_API_KEY or api_key in the hook config",
    ],
    [
      403,
      "the server refused the API key (HTTP 403: Scripted 403.); set CHARTER_API_KEY or api_key in the hook config",
    ],
    [404, "unexpected answer from ENDPOINT (HTTP 404: Scripted 404.); check CHARTER_URL"],
    [405, "unexpected answer from ENDPOINT (HTTP 405: Scripted 405.); check CHARTER_URL"],
  ])(
    "HTTP %i: spooled, said once until a delivery",
    async (status, reason) => {
      const t = setup();
      const s = await t.start();
      const said = `charter: ${reason.replace("ENDPOINT", endpoint(s.port))}; event spooled (1 waiting); ${ONCE}`;
      s.behaviour.status = status;
      const first = await run(
        ["hook", "PostToolUse"],
        payload("post-tool-use-bash.json"),
        t.env(s.port),
      );
      expect(first).toMatchObject({ code: EXIT.ok, stdout: "" });
      expect(lines(first.stderr)).toEqual([said]);
      const second = await run(["hook", "Stop"], payload("stop.json"), t.env(s.port));
      expect(second).toMatchObject({ code: EXIT.ok, stdout: "", stderr: "" });
      expect(t.spooled()).toHaveLength(2);

      s.behaviour.status = undefined;
      const fixed = await run(["hook", "SessionEnd"], payload("session-end.json"), t.env(s.port));
      expect(fixed).toMatchObject({ code: EXIT.ok, stdout: "", stderr: "" });
      expect(s.store.events.map((e) => e.type)).toEqual(["PostToolUse", "Stop", "SessionEnd"]);
      expect(t.spooled()).toEqual([]);

      // Delivered once: the same fault is news again.
      s.behaviour.status = status;
      const again = await run(
        ["hook", "PostToolUse"],
        payload("post-tool-use-bash.json"),
        t.env(s.port),
      );
      expect(lines(again.stderr)).toEqual([said]);
    },
    20_000,
  );

  it.each([400, 409, 413, 422])(
    "HTTP %i for a live event: kept in rejected/ with the server's reason, nothing spooled",
    async (status) => {
      const t = setup();
      const s = await t.start();
      s.behaviour.status = status;
      const result = await run(
        ["hook", "UserPromptSubmit"],
        payload("user-prompt-submit.json"),
        t.env(s.port),
      );
      expect(result).toMatchObject({ code: EXIT.ok, stdout: "" });
      const [kept, reason] = t.rejected();
      expect(kept).toMatch(/^\d{15}-000000-[\w-]+\.json$/);
      expect(reason).toBe(kept!.replace(/\.json$/, REASON_SUFFIX));
      expect(lines(result.stderr)).toEqual([
        `charter: the server rejected the event (HTTP ${status}: Scripted ${status}.); kept it in ${path.join(t.rejectedDir, kept!)}`,
      ]);
      expect(JSON.parse(readFileSync(path.join(t.rejectedDir, kept!), "utf8"))).toMatchObject({
        type: "UserPromptSubmit",
        prompt: PROMPT,
        context_delivered: false,
      });
      const why = readFileSync(path.join(t.rejectedDir, reason!), "utf8").split("\n");
      expect(why[0]).toBe(`HTTP ${status}: Scripted ${status}.`);
      expect(why[1]).toMatch(/^rejected at \d{4}-\d\d-\d\dT[\d:.]+Z$/);
      expect(why.slice(2).join("\n")).toBe(
        `server answer:\n${JSON.stringify({ error: { code: "scripted", message: `Scripted ${status}.`, details: null } }, null, 2)}\n`,
      );
      expect(t.spooled()).toEqual([]);
    },
    20_000,
  );
});

describe("charter hook, a session that outlives the server", () => {
  it("server killed mid-session: events 1-2 delivered, 3-5 spooled (the prompt marked undelivered), all replayed in order by the next hook", async () => {
    const store = createEventsStore();
    const t = setup({ store });
    let s = await t.start();
    const port = s.port;
    const session: [string, string, Record<string, unknown>][] = [
      ["UserPromptSubmit", "user-prompt-submit.json", {}],
      ["PostToolUse", "post-tool-use-bash.json", {}],
      ["PostToolUse", "post-tool-use-edit.json", {}],
      ["UserPromptSubmit", "user-prompt-submit.json", { prompt: "Now update the changelog." }],
      ["Stop", "stop.json", {}],
    ];
    for (const [event, fixture, changes] of session.slice(0, 2)) {
      expect(await run(["hook", event], payload(fixture, changes), t.env(port))).toMatchObject({
        code: EXIT.ok,
        stderr: "",
      });
    }
    await t.stop(s);

    for (const [index, [event, fixture, changes]] of session.slice(2).entries()) {
      const result = await run(["hook", event], payload(fixture, changes), t.env(port));
      expect(result).toMatchObject({ code: EXIT.ok, stdout: "" });
      expect(lines(result.stderr)).toEqual([
        `charter: server unreachable (connect ECONNREFUSED 127.0.0.1:${port}); event spooled (${index + 1} waiting)`,
      ]);
    }
    const spooled = t.spooledEvents();
    expect(spooled.map((e) => e.type)).toEqual(["PostToolUse", "UserPromptSubmit", "Stop"]);
    expect(spooled[1]).toMatchObject({
      prompt: "Now update the changelog.",
      context_delivered: false,
    });
    expect(spooled[0]).not.toHaveProperty("context_delivered");

    s = await t.start(port);
    const next = await run(["hook", "SessionEnd"], payload("session-end.json"), t.env(port));
    expect(next).toMatchObject({ code: EXIT.ok, stdout: "", stderr: "" });
    expect(t.spooled()).toEqual([]);
    expect(store.events.map((e) => e.type)).toEqual([
      "UserPromptSubmit",
      "PostToolUse",
      "PostToolUse",
      "UserPromptSubmit",
      "Stop",
      "SessionEnd",
    ]);
    expect(store.events.slice(2, 5).map((e) => e.id)).toEqual(spooled.map((e) => e.id));
    expect(store.events[0]).not.toHaveProperty("context_delivered");
    expect(store.events[3]).toMatchObject({
      prompt: "Now update the changelog.",
      context_delivered: false,
    });
    expect(store.arrivals).toHaveLength(6);
    expect(new Set(store.arrivals).size).toBe(6);
  }, 60_000);

  it("a poison event in the middle of the spool goes to rejected/ with its reason; every later event is delivered, in order", async () => {
    const store = createEventsStore();
    const t = setup({ store });
    let s = await t.start();
    const port = s.port;
    await t.stop(s);
    const calls: [string, string, Record<string, unknown>][] = [
      ["UserPromptSubmit", "user-prompt-submit.json", {}],
      ["PostToolUse", "post-tool-use-bash.json", {}],
      ["PostToolUse", "post-tool-use-bash.json", { tool_name: "Poison" }],
      ["PostToolUse", "post-tool-use-edit.json", {}],
      ["Stop", "stop.json", {}],
    ];
    for (const [event, fixture, changes] of calls)
      await run(["hook", event], payload(fixture, changes), t.env(port));
    const spooled = t.spooled();
    const ids = t.spooledIds();
    expect(ids).toHaveLength(5);

    s = await t.start(port);
    s.behaviour.reject = (event) =>
      event.type === "PostToolUse" && event.tool_name === "Poison"
        ? "tool_input.command: holds a NUL byte"
        : undefined;
    const next = await run(["hook", "SessionEnd"], payload("session-end.json"), t.env(port));
    expect(next).toMatchObject({ code: EXIT.ok, stdout: "" });
    expect(lines(next.stderr)).toEqual([
      `charter: the server rejected a spooled event (HTTP 422: tool_input.command: holds a NUL byte); moved it to ${path.join(t.rejectedDir, spooled[2]!)}`,
    ]);
    expect(t.spooled()).toEqual([]);
    expect(store.events.map((e) => e.id).slice(0, 4)).toEqual([ids[0], ids[1], ids[3], ids[4]]);
    expect(store.events.map((e) => e.type)).toEqual([
      "UserPromptSubmit",
      "PostToolUse",
      "PostToolUse",
      "Stop",
      "SessionEnd",
    ]);
    expect(new Set(store.arrivals).size).toBe(store.arrivals.length);
    expect(t.rejected()).toEqual([spooled[2], spooled[2]!.replace(/\.json$/, REASON_SUFFIX)]);
    expect(JSON.parse(readFileSync(path.join(t.rejectedDir, spooled[2]!), "utf8"))).toMatchObject({
      id: ids[2],
      tool_name: "Poison",
    });
    const why = readFileSync(
      path.join(t.rejectedDir, spooled[2]!.replace(/\.json$/, REASON_SUFFIX)),
      "utf8",
    );
    expect(why.split("\n")[0]).toBe("HTTP 422: tool_input.command: holds a NUL byte");
    expect(why).toContain('"message": "tool_input.command: holds a NUL byte"');
  }, 60_000);

  it("spool flush with a poison event: flushed 4, 0 left, 1 rejected", async () => {
    const t = setup();
    let s = await t.start();
    const port = s.port;
    await t.stop(s);
    for (const tool of ["Bash", "Read", "Poison", "Grep", "Glob"])
      await run(
        ["hook", "PostToolUse"],
        payload("post-tool-use-bash.json", { tool_name: tool }),
        t.env(port),
      );
    const spooled = t.spooled();
    s = await t.start(port);
    s.behaviour.reject = (event) =>
      event.type === "PostToolUse" && event.tool_name === "Poison"
        ? "tool_name: not a tool"
        : undefined;
    const flush = await run(["spool", "flush"], "", t.env(port));
    expect(flush).toMatchObject({ code: EXIT.ok, stdout: "flushed 4, 0 left, 1 rejected\n" });
    expect(lines(flush.stderr)).toEqual([
      `charter: the server rejected a spooled event (HTTP 422: tool_name: not a tool); moved it to ${path.join(t.rejectedDir, spooled[2]!)}`,
    ]);
    expect(s.store.events.map((e) => (e.type === "PostToolUse" ? e.tool_name : e.type))).toEqual([
      "Bash",
      "Read",
      "Grep",
      "Glob",
    ]);
  }, 60_000);

  it("a refused key keeps every event, says so once, and a fixed key delivers them all in order", async () => {
    const store = createEventsStore();
    const t = setup({ store });
    const s = await t.start();
    const wrongKey = { ...t.env(s.port), CHARTER_API_KEY: "wrong" };
    const results = [];
    for (const [event, fixture] of [
      ["UserPromptSubmit", "user-prompt-submit.json"],
      ["PostToolUse", "post-tool-use-bash.json"],
      ["Stop", "stop.json"],
    ] as const) {
      results.push(await run(["hook", event], payload(fixture), wrongKey));
    }
    expect(results.map((r) => [r.code, r.stdout])).toEqual([
      [EXIT.ok, ""],
      [EXIT.ok, ""],
      [EXIT.ok, ""],
    ]);
    expect(results.map((r) => lines(r.stderr))).toEqual([
      [
        `charter: the server refused the API key (HTTP 401: Invalid API key.); set CHARTER_API_KEY or api_key in the hook config; event spooled (1 waiting); ${ONCE}`,
      ],
      [],
      [],
    ]);
    expect(store.events).toEqual([]);
    const spooled = t.spooledEvents();
    expect(spooled.map((e) => e.type)).toEqual(["UserPromptSubmit", "PostToolUse", "Stop"]);
    expect(spooled[0]).toMatchObject({ context_delivered: false });

    const fixed = await run(["hook", "SessionEnd"], payload("session-end.json"), t.env(s.port));
    expect(fixed).toMatchObject({ code: EXIT.ok, stdout: "", stderr: "" });
    expect(t.spooled()).toEqual([]);
    expect(store.events.map((e) => e.id).slice(0, 3)).toEqual(spooled.map((e) => e.id));
    expect(store.events.map((e) => e.type)).toEqual([
      "UserPromptSubmit",
      "PostToolUse",
      "Stop",
      "SessionEnd",
    ]);
    expect(
      existsSync(t.spoolDir) ? readdirSync(t.spoolDir).filter((n) => n.startsWith(".")) : [],
    ).toEqual([]);
  }, 60_000);

  it("a UserPromptSubmit whose answer came too late is replayed marked undelivered; a delivered one prints its context and sends nothing more", async () => {
    const t = setup();
    const s = await t.start();
    const live = await run(
      ["hook", "UserPromptSubmit"],
      payload("user-prompt-submit.json"),
      t.env(s.port),
    );
    expect(live).toMatchObject({ code: EXIT.ok, stderr: "" });
    expect(JSON.parse(live.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: "UserPromptSubmit",
        additionalContext: "Principles for: Add a test for the d",
      },
    });
    expect(s.store.arrivals).toHaveLength(1);

    s.behaviour.delayMs = 3_000;
    const slow = await run(
      ["hook", "UserPromptSubmit"],
      payload("user-prompt-submit.json", { prompt: "And the tax rounding too." }),
      t.env(s.port),
    );
    expect(slow).toMatchObject({ code: EXIT.ok, stdout: "" });
    const [spooled] = t.spooledEvents();
    expect(spooled).toMatchObject({
      prompt: "And the tax rounding too.",
      context_delivered: false,
    });
    // The server took the slow request as delivered; the replay of the same id tells it otherwise.
    expect(s.store.events[1]).not.toHaveProperty("context_delivered");

    s.behaviour.delayMs = 0;
    expect(await run(["hook", "Stop"], payload("stop.json"), t.env(s.port))).toMatchObject({
      code: EXIT.ok,
      stderr: "",
    });
    expect(s.store.arrivals).toEqual([
      s.store.events[0]!.id,
      spooled!.id,
      spooled!.id,
      s.store.events[2]!.id,
    ]);
    expect(t.spooled()).toEqual([]);
  }, 60_000);

  it("a payload that comes late still has the whole budget for the server: the prompt gets its principles", async () => {
    const t = setup();
    const s = await t.start();
    // Past the whole budget as it was counted before (from the process start).
    const late = await run(
      ["hook", "UserPromptSubmit"],
      payload("user-prompt-submit.json"),
      t.env(s.port),
      { stdinAfterMs: 1_200 },
    );
    expect(late).toMatchObject({ code: EXIT.ok, stderr: "" });
    expect(JSON.parse(late.stdout)).toMatchObject({
      hookSpecificOutput: { additionalContext: "Principles for: Add a test for the d" },
    });
    expect(s.store.events).toEqual([expect.objectContaining({ prompt: PROMPT })]);
    expect(t.spooled()).toEqual([]);
  }, 20_000);

  it("a late payload to a server too slow for the budget is spooled marked undelivered once the request gives up", async () => {
    const t = setup();
    const s = await t.start();
    s.behaviour.delayMs = 5_000;
    const late = await run(
      ["hook", "UserPromptSubmit"],
      payload("user-prompt-submit.json"),
      t.env(s.port),
      { stdinAfterMs: 1_200 },
    );
    expect(late).toMatchObject({ code: EXIT.ok, stdout: "" });
    expect(lines(late.stderr)).toEqual([
      expect.stringMatching(
        /^charter: (server unreachable \(no answer within \d+ ms\)|out of time); event spooled \(1 waiting\)$/,
      ),
    ]);
    expect(t.spooledEvents()).toEqual([
      expect.objectContaining({
        type: "UserPromptSubmit",
        prompt: PROMPT,
        context_delivered: false,
      }),
    ]);
  }, 20_000);
});
