/**
 * The bundled hook (dist/hook.mjs), spawned the way Claude Code runs it, against a scripted
 * events server: real payloads in, events out, the spool when the server is down or slow.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createEventsStore, startEventsServer, type EventsServer, type EventsStore } from "@/test/events-server";
import { EXIT } from "../errors";
import { HOOK_EVENTS, type HookEventName } from "./events";
import { REJECTED_DIR } from "./spool";

const ROOT = path.resolve(import.meta.dirname, "../..");
const HOOK = path.join(ROOT, "dist", "hook.mjs");
const FIXTURES = path.join(import.meta.dirname, "fixtures");
const TRANSCRIPT = path.join(FIXTURES, "transcript.jsonl");
const API_KEY = "test-key-0123456789";
/** A loose bound on one hook call, start to exit: the budget is 1 s. */
const WALL_LIMIT_MS = 1_500;
const UNREACHABLE = /^charter: server unreachable \(.+\); event spooled \((\d+) waiting\)$/;

const CALLS: [HookEventName, string][] = [
  ["UserPromptSubmit", "user-prompt-submit.json"],
  ["PostToolUse", "post-tool-use-bash.json"],
  ["PostToolUse", "post-tool-use-edit.json"],
  ["Stop", "stop.json"],
  ["SessionEnd", "session-end.json"],
];

function payload(name: string): string {
  const data = JSON.parse(readFileSync(path.join(FIXTURES, name), "utf8")) as Record<string, unknown>;
  return JSON.stringify({ ...data, transcript_path: TRANSCRIPT });
}

type Run = { code: number | null; stdout: string; stderr: string; ms: number };

/** Spawns the bundle (asynchronously: the scripted server answers from this process). */
function run(args: string[], input: string, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const childEnv: NodeJS.ProcessEnv = { NODE_ENV: "test", PATH: process.env.PATH ?? "", HOME: env.HOME ?? os.tmpdir(), ...env };
    const child = spawn(process.execPath, [HOOK, ...args], { env: childEnv, stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
    child.stdin.end(input);
  });
}

const lines = (text: string) => text.split("\n").filter(Boolean);

let server: EventsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function setup(options: { store?: EventsStore } = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "charter-hook-"));
  const spoolDir = path.join(dir, "spool");
  return {
    dir,
    spoolDir,
    spooled: () => (existsSync(spoolDir) ? readdirSync(spoolDir, { withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith(".json")).map((e) => e.name).sort() : []),
    spooledIds: () => readdirSync(spoolDir).filter((n) => n.endsWith(".json")).sort().map((n) => (JSON.parse(readFileSync(path.join(spoolDir, n), "utf8")) as { id: string }).id),
    async start(port = 0) {
      server = await startEventsServer({ port, store: options.store, behaviour: { apiKey: API_KEY, context: (e) => `Principles for: ${e.prompt.slice(0, 20)}` } });
      return server;
    },
    env(port: number): Record<string, string> {
      // HOME in the temporary directory keeps a developer's ~/.config/charter/hook.json out of the test.
      return { CHARTER_URL: `http://127.0.0.1:${port}`, CHARTER_API_KEY: API_KEY, CHARTER_SPOOL_DIR: spoolDir, HOME: dir };
    },
  };
}

beforeAll(() => {
  const build = spawnSync(process.execPath, [path.join(ROOT, "scripts", "build-hook.mjs")], { encoding: "utf8" });
  expect(build.status, build.stderr).toBe(0);
}, 60_000);

describe("charter hook, server up", () => {
  it("UserPromptSubmit prints the principles as Claude Code's additional context", async () => {
    const t = setup();
    const s = await t.start();
    const result = await run(["hook", "UserPromptSubmit"], payload("user-prompt-submit.json"), t.env(s.port));
    expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
    expect(JSON.parse(result.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "Principles for: Add a test for the d" },
    });
    expect(s.store.events).toHaveLength(1);
    expect(s.store.events[0]).toMatchObject({ type: "UserPromptSubmit", prompt: "Add a test for the discount rounding bug and fix it, then run the suite." });
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
    expect(s.store.events[1]).toMatchObject({ tool_name: "Bash", tool_response: { stdout: expect.stringContaining("4 passed"), stderr: "", interrupted: false, isImage: false } });
    expect(s.store.events[2]).toMatchObject({ tool_name: "Edit", tool_input: { file_path: "/home/dev/shop/src/discount.ts" } });
    expect(s.store.events[4]).toMatchObject({ type: "SessionEnd", reason: "prompt_input_exit" });
  }, 30_000);

  it("Stop sends the transcript's last assistant text", async () => {
    const t = setup();
    const s = await t.start();
    const result = await run(["hook", "Stop"], payload("stop.json"), t.env(s.port));
    expect(result).toMatchObject({ code: EXIT.ok, stdout: "", stderr: "" });
    expect(s.store.events[0]).toMatchObject({
      type: "Stop",
      response: "Fixed: `discount()` now rounds to the nearest cent instead of flooring.\nAll 4 discount tests pass.",
      context_utilization: expect.closeTo(0.09155, 5),
    });
  }, 20_000);

  it("Stop with a missing transcript sends an empty response and says so on one line", async () => {
    const t = setup();
    const s = await t.start();
    const input = JSON.stringify({ ...JSON.parse(payload("stop.json")), transcript_path: path.join(t.dir, "gone.jsonl") });
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
    const { port } = await t.start();
    await server!.close();

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
    expect(s.store.events.map((e) => e.type)).toEqual([...CALLS.map(([event]) => event), "SessionEnd"]);
    expect(new Set(s.store.arrivals).size).toBe(s.store.arrivals.length);
    expect(ids).toHaveLength(CALLS.length + 1);
  }, 60_000);

  it("hooks running at once (parallel tool calls) share the spool without losing or doubling an event", async () => {
    const store = createEventsStore();
    const t = setup({ store });
    const { port } = await t.start();
    await server!.close();
    for (const [event, name] of CALLS) await run(["hook", event], payload(name), t.env(port));
    const spooledIds = t.spooledIds();

    const s = await t.start(port);
    const parallel = await Promise.all([1, 2, 3, 4].map(() => run(["hook", "PostToolUse"], payload("post-tool-use-bash.json"), t.env(port))));
    for (const result of parallel) {
      expect(result.code).toBe(EXIT.ok);
      expect(result.ms).toBeLessThan(WALL_LIMIT_MS);
      expect(lines(result.stderr).length).toBeLessThanOrEqual(1);
    }
    expect(await run(["spool", "flush"], "", t.env(port))).toMatchObject({ code: EXIT.ok, stdout: expect.stringMatching(/^flushed \d+, 0 left\n$/) });
    const ids = s.store.events.map((e) => e.id);
    expect(ids.slice(0, CALLS.length)).toEqual(spooledIds);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(CALLS.length + 4);
  }, 60_000);

  it("spool flush reports what it sent and exits 1 while the server is down", async () => {
    const store = createEventsStore();
    const t = setup({ store });
    const { port } = await t.start();
    await server!.close();
    for (const [event, name] of CALLS.slice(0, 2)) await run(["hook", event], payload(name), t.env(port));

    const down = await run(["spool", "flush"], "", t.env(port));
    expect(down.code).toBe(EXIT.invalid);
    expect(down.stdout).toBe("flushed 0, 2 left\n");
    expect(lines(down.stderr)).toEqual([expect.stringMatching(/^charter: server unreachable \(/)]);

    const s = await t.start(port);
    const up = await run(["spool", "flush"], "", t.env(port));
    expect(up).toMatchObject({ code: EXIT.ok, stdout: "flushed 2, 0 left\n", stderr: "" });
    expect(s.store.events.map((e) => e.type)).toEqual(["UserPromptSubmit", "PostToolUse"]);
    expect(t.spooled()).toEqual([]);

    expect(await run(["spool", "flush"], "", t.env(port))).toMatchObject({ code: EXIT.ok, stdout: "flushed 0, 0 left\n" });
  }, 60_000);

  it("spools within the budget when the server is slow, and the replay does not count the event twice", async () => {
    const t = setup();
    const s = await t.start();
    s.behaviour.delayMs = 3_000;
    const slow = await run(["hook", "UserPromptSubmit"], payload("user-prompt-submit.json"), t.env(s.port));
    expect(slow.code).toBe(EXIT.ok);
    expect(slow.ms).toBeLessThan(WALL_LIMIT_MS);
    expect(slow.stdout).toBe("");
    expect(slow.stderr.trim()).toMatch(/^charter: server unreachable \(no answer within \d+ ms\); event spooled \(1 waiting\)$/);
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

  it.each([
    [503, true, /^charter: server unreachable \(HTTP 503: Scripted 503\.\); event spooled \(1 waiting\)$/],
    [429, true, /^charter: server unreachable \(HTTP 429/],
    [422, false, /^charter: the server rejected the event \(HTTP 422: Scripted 422\.\); event dropped$/],
    [404, false, /^charter: unexpected answer from http:\/\/127\.0\.0\.1:\d+\/api\/v1\/events \(HTTP 404.*check CHARTER_URL; event not sent$/],
  ])("answers HTTP %i: spooled %s", async (status, spooled, message) => {
    const t = setup();
    const s = await t.start();
    s.behaviour.status = status;
    const result = await run(["hook", "PostToolUse"], payload("post-tool-use-bash.json"), t.env(s.port));
    expect(result).toMatchObject({ code: EXIT.ok, stdout: "" });
    expect(lines(result.stderr)).toEqual([expect.stringMatching(message)]);
    expect(t.spooled()).toHaveLength(spooled ? 1 : 0);
  }, 20_000);

  it("says the key is refused and does not spool the event", async () => {
    const t = setup();
    const s = await t.start();
    const result = await run(["hook", "UserPromptSubmit"], payload("user-prompt-submit.json"), { ...t.env(s.port), CHARTER_API_KEY: "wrong" });
    expect(result).toMatchObject({ code: EXIT.ok, stdout: "" });
    expect(lines(result.stderr)).toEqual([expect.stringMatching(/^charter: the server refused the API key \(HTTP 401: Invalid API key\.\).*event not sent$/)]);
    expect(readdirSync(t.dir)).not.toContain("spool");
    expect(s.store.events).toEqual([]);
  }, 20_000);

  it("moves a spooled event the server will never take aside, and delivers the rest", async () => {
    const t = setup();
    const s = await t.start();
    mkdirSync(t.spoolDir, { recursive: true });
    const good = { id: "spooled-good-1", type: "SessionEnd", session_id: "s-1" };
    writeFileSync(path.join(t.spoolDir, "000000000000001-000000-spooled-bad-1.json"), JSON.stringify({ id: "spooled-bad-1", type: "SessionEnd" }));
    writeFileSync(path.join(t.spoolDir, "000000000000002-000000-spooled-good-1.json"), JSON.stringify(good));
    const result = await run(["hook", "Stop"], payload("stop.json"), t.env(s.port));
    expect(result.code).toBe(EXIT.ok);
    expect(lines(result.stderr)).toEqual([expect.stringMatching(/^charter: the server refused a spooled event \(HTTP 422.*moved it to .*rejected/)]);
    expect(s.store.events.map((e) => e.id).slice(0, 1)).toEqual(["spooled-good-1"]);
    expect(s.store.events.map((e) => e.type)).toEqual(["SessionEnd", "Stop"]);
    expect(t.spooled()).toEqual([]);
    expect(readdirSync(path.join(t.spoolDir, REJECTED_DIR))).toEqual(["000000000000001-000000-spooled-bad-1.json"]);
  }, 20_000);
});

describe("charter hook, usage", () => {
  const env = { CHARTER_URL: "http://127.0.0.1:9", CHARTER_SPOOL_DIR: path.join(os.tmpdir(), "charter-hook-unused") };

  // Claude Code reads exit 2 from a hook as "block the agent": a misspelt event must never do that.
  it.each([[["hook", "PreToolUse"]], [["hook", "stop"]]])("%j exits 1, not 2, with one line", async (args) => {
    const result = await run(args, "{}", env);
    expect(result.code).toBe(EXIT.invalid);
    expect(lines(result.stderr)).toEqual([`charter: unknown hook event "${args[1]}" (expected ${HOOK_EVENTS.join(", ")}) (run with --help for usage)`]);
  });

  it.each([["not json"], [""], ["[]"]])("exits 1 on the payload %j, with one line", async (input) => {
    const result = await run(["hook", "Stop"], input, env);
    expect(result.code).toBe(EXIT.invalid);
    expect(lines(result.stderr)).toHaveLength(1);
  });

  it.each([[["hook", "--help"]], [["spool", "--help"]], [["hook", "Stop", "-h"]]])("%j prints usage", async (args) => {
    const result = await run(args, "", env);
    expect(result.code).toBe(EXIT.ok);
    expect(result.stdout).toMatch(/^Usage: charter (hook|spool)/);
  });

  it.each([[["spool"]], [["spool", "drain"]], [[]]])("%j is a usage error", async (args) => {
    expect((await run(args, "", env)).code).toBe(EXIT.usage);
  });

  it.each([[["hook"]], [["hook", "Stop", "extra"]]])("%j is a mistake that exits 1, as every hook mistake does", async (args) => {
    expect((await run(args, "", env)).code).toBe(EXIT.invalid);
  });
});
