/**
 * The hook keeps its event however slowly it starts, whatever stdin does, and when its
 * spool directory cannot be written: the bundled hook (dist/hook.cjs) spawned as Claude
 * Code runs it, with its start held back by a preload (a busy machine), a stdin that is
 * never closed, or a file in the way of the spool directory.
 *
 * Each test has its own home, spool and server, and most of their time is the hook waiting
 * (its start held back, stdin's STDIN_WAIT_MS): the tests run side by side.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { EXIT } from "../errors";
import { HOOK_BUDGET_MS, STDIN_WAIT_MS } from "./run";
import { REASON_SUFFIX } from "./spool";
import { buildHook, lines, payload, run, setup } from "./spawn-hook";

/** Runs of each kind: every one must keep its event. */
const RUNS = 4;
/** Longer than the hook's whole budget (HOOK_BUDGET_MS), as it was counted from the process start. */
const START_DELAY_MS = HOOK_BUDGET_MS + 100;
const PROMPT = "Add a test for the discount rounding bug and fix it, then run the suite.";

beforeAll(() => {
  const build = buildHook();
  expect(build.status, build.stderr).toBe(0);
}, 60_000);

/**
 * NODE_OPTIONS that hold the hook's start back by START_DELAY_MS, before its own code runs.
 * The preload blocks the thread without spinning, so that the hooks of the tests running
 * beside it keep the CPU.
 */
function slowStart(dir: string): Record<string, string> {
  const file = path.join(dir, "slow-start.cjs");
  writeFileSync(
    file,
    `Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${START_DELAY_MS});\n`,
  );
  return { NODE_OPTIONS: `--require ${file}` };
}

describe.concurrent("charter hook, started slowly", () => {
  it(`delivers every prompt, with its principles, when the process takes ${START_DELAY_MS} ms to start (${RUNS} of ${RUNS})`, async ({
    onTestFinished,
  }) => {
    const t = setup();
    onTestFinished(t.close);
    const s = await t.start();
    const env = { ...t.env(s.port), ...slowStart(t.dir) };
    for (let i = 0; i < RUNS; i++) {
      const result = await run(
        ["hook", "UserPromptSubmit"],
        payload("user-prompt-submit.json", { prompt: `${PROMPT} (${i})` }),
        env,
      );
      expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
      expect(JSON.parse(result.stdout)).toMatchObject({
        hookSpecificOutput: { additionalContext: expect.stringContaining("Principles for:") },
      });
    }
    expect(s.store.events.map((e) => (e as { prompt: string }).prompt)).toEqual(
      Array.from({ length: RUNS }, (_, i) => `${PROMPT} (${i})`),
    );
    expect(t.spooled()).toEqual([]);
  }, 120_000);

  it(`spools every event when the server is down too, and flush delivers them all (${RUNS} of ${RUNS})`, async ({
    onTestFinished,
  }) => {
    const t = setup();
    onTestFinished(t.close);
    const s = await t.start();
    const port = s.port;
    await t.stop(s);
    const env = { ...t.env(port), ...slowStart(t.dir) };
    for (let i = 0; i < RUNS; i++) {
      const result = await run(
        ["hook", "UserPromptSubmit"],
        payload("user-prompt-submit.json", { prompt: `${PROMPT} (${i})` }),
        env,
      );
      expect(result).toMatchObject({ code: EXIT.ok, stdout: "" });
      expect(lines(result.stderr)).toEqual([
        expect.stringMatching(
          /^charter: server unreachable \(.+\); event spooled \(\d+ waiting\)$/,
        ),
      ]);
    }
    expect(t.spooledEvents().map((e) => e.prompt)).toEqual(
      Array.from({ length: RUNS }, (_, i) => `${PROMPT} (${i})`),
    );

    const back = await t.start(port);
    const flush = await run(["spool", "flush"], "", t.env(port));
    expect(flush).toMatchObject({ code: EXIT.ok, stdout: `flushed ${RUNS}, 0 left, 0 rejected\n` });
    expect(back.store.events).toEqual(
      Array.from({ length: RUNS }, (_, i) =>
        expect.objectContaining({ prompt: `${PROMPT} (${i})`, context_delivered: false }),
      ),
    );
  }, 120_000);
});

describe.concurrent(`charter hook, stdin still open after ${STDIN_WAIT_MS} ms`, () => {
  it("spools the payload it holds, marked undelivered, without sending it", async ({
    onTestFinished,
  }) => {
    const t = setup();
    onTestFinished(t.close);
    const s = await t.start();
    const result = await run(
      ["hook", "UserPromptSubmit"],
      payload("user-prompt-submit.json"),
      t.env(s.port),
      { stdinOpen: true },
    );
    expect(result).toMatchObject({ code: EXIT.ok, stdout: "" });
    expect(lines(result.stderr)).toEqual([
      `charter: stdin was still open after ${STDIN_WAIT_MS} ms; event spooled (1 waiting)`,
    ]);
    expect(t.spooledEvents()).toEqual([
      expect.objectContaining({
        type: "UserPromptSubmit",
        prompt: PROMPT,
        context_delivered: false,
      }),
    ]);
    expect(s.store.requests).toBe(0);
  }, 30_000);

  it("keeps a payload cut short in rejected/, as it was, with the reason", async ({
    onTestFinished,
  }) => {
    const t = setup();
    onTestFinished(t.close);
    const s = await t.start();
    const cut = payload("user-prompt-submit.json").slice(0, 60);
    const result = await run(["hook", "UserPromptSubmit"], cut, t.env(s.port), {
      stdinOpen: true,
    });
    expect(result).toMatchObject({ code: EXIT.ok, stdout: "" });
    const [line] = lines(result.stderr);
    expect(line).toMatch(
      new RegExp(
        `^charter: stdin was still open after ${STDIN_WAIT_MS} ms and what it held is not a hook payload: the hook payload on stdin is not valid JSON \\(.+\\); kept it in ${t.rejectedDir}/.+-stdin\\.json$`,
      ),
    );
    expect(lines(result.stderr)).toHaveLength(1);
    const kept = readdirSync(t.rejectedDir);
    const data = kept.find((name) => name.endsWith(".json"))!;
    expect(readFileSync(path.join(t.rejectedDir, data), "utf8")).toBe(cut);
    expect(kept).toContain(data.replace(/\.json$/, REASON_SUFFIX));
    expect(t.spooled()).toEqual([]);
    expect(s.store.requests).toBe(0);
  }, 30_000);

  it("says so in one line when it held nothing", async ({ onTestFinished }) => {
    const t = setup();
    onTestFinished(t.close);
    const s = await t.start();
    const result = await run(["hook", "Stop"], "", t.env(s.port), { stdinOpen: true });
    expect(result).toMatchObject({ code: EXIT.ok, stdout: "" });
    expect(lines(result.stderr)).toEqual([
      `charter: stdin was still open after ${STDIN_WAIT_MS} ms and held no hook payload; nothing to keep`,
    ]);
  }, 30_000);
});

describe.concurrent("charter hook, a spool directory that cannot be written", () => {
  it("spools to the fallback with one line; the next hook replays it first, and flush drains both, oldest first", async ({
    onTestFinished,
  }) => {
    const t = setup();
    onTestFinished(t.close);
    const s = await t.start();
    const port = s.port;
    await t.stop(s);
    writeFileSync(t.spoolDir, "a file in the way");
    const first = await run(
      ["hook", "UserPromptSubmit"],
      payload("user-prompt-submit.json", { prompt: "first" }),
      t.env(port),
    );
    expect(first).toMatchObject({ code: EXIT.ok, stdout: "" });
    expect(lines(first.stderr)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^charter: server unreachable \\(.+\\); event spooled in ${t.fallbackDir} \\(1 waiting\\), since it cannot write to ${t.spoolDir} \\(.+\\)$`,
        ),
      ),
    ]);
    expect(readdirSync(t.fallbackDir).filter((n) => n.endsWith(".json"))).toHaveLength(1);

    // The directory can be written again: the next event goes there, behind the first.
    rmSync(t.spoolDir);
    const second = await run(
      ["hook", "UserPromptSubmit"],
      payload("user-prompt-submit.json", { prompt: "second" }),
      t.env(port),
    );
    expect(lines(second.stderr)).toEqual([
      expect.stringMatching(/^charter: server unreachable \(.+\); event spooled \(2 waiting\)$/),
    ]);
    expect(t.spooledEvents().map((e) => e.prompt)).toEqual(["first", "second"]);

    const back = await t.start(port);
    const flush = await run(["spool", "flush"], "", t.env(port));
    expect(flush).toMatchObject({ code: EXIT.ok, stdout: "flushed 2, 0 left, 0 rejected\n" });
    expect(back.store.events.map((e) => (e as { prompt: string }).prompt)).toEqual([
      "first",
      "second",
    ]);
    expect(t.spooled()).toEqual([]);
  }, 60_000);

  it("a hook replays the fallback before its own event", async ({ onTestFinished }) => {
    const t = setup();
    onTestFinished(t.close);
    const s = await t.start();
    const port = s.port;
    await t.stop(s);
    writeFileSync(t.spoolDir, "a file in the way");
    await run(["hook", "Stop"], payload("stop.json"), t.env(port));
    expect(t.spooled()).toHaveLength(1);

    const back = await t.start(port);
    const next = await run(["hook", "SessionEnd"], payload("session-end.json"), t.env(port));
    expect(next).toMatchObject({ code: EXIT.ok, stderr: "" });
    expect(back.store.events.map((e) => e.type)).toEqual(["Stop", "SessionEnd"]);
    expect(t.spooled()).toEqual([]);
  }, 60_000);
});
