/**
 * The bundled hook (dist/hook.cjs) spawned as Codex, Gemini CLI and Cursor run it, with their
 * own payloads (fixtures/<agent>/), against the scripted events server: one session each,
 * the answers in each agent's shape, the spool when the server is down, broken payloads.
 */
import { AGENT_SESSIONS } from "./fixtures/sessions";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createEventsStore } from "@/test/events-server";
import { nodeStartMs } from "@/test/timers";
import { EXIT } from "../errors";
import { DIALECTS, type DialectName } from "./dialects";
import type { HookEventName } from "./events";
import { HOOK_BUDGET_MS } from "./run";
import {
  agentFixture,
  buildHook,
  closeServers,
  lines,
  run,
  sessionContext,
  setup,
} from "./spawn-hook";

type Agent = Exclude<DialectName, "claude">;
/** One call: the event argument the agent's settings would give, and its fixture. */
type Call = readonly [string, string];

const SESSIONS: Record<Agent, readonly Call[]> = AGENT_SESSIONS;
const AGENTS = Object.keys(SESSIONS) as Agent[];
const typeOf = (agent: Agent, name: string): HookEventName =>
  DIALECTS[agent].events[name] ?? (name as HookEventName);
const input = (agent: Agent, fixture: string) => JSON.stringify(agentFixture(agent, fixture));
const sessionOf = (agent: Agent) => {
  const start = agentFixture(agent, SESSIONS[agent][0]![1]);
  return (start.session_id ?? start.conversation_id) as string;
};

/** The prompt's stdout: the principles in the agent's shape, or Cursor's bare consent. */
const PROMPT_ANSWER: Record<Agent, (context: string) => unknown> = {
  codex: (context) => ({
    hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: context },
  }),
  gemini: (context) => ({
    hookSpecificOutput: { hookEventName: "BeforeAgent", additionalContext: context },
  }),
  cursor: () => ({ continue: true }),
};
/** SessionStart's stdout: the constitution's core in the agent's shape. */
const START_ANSWER: Record<Agent, (context: string) => unknown> = {
  codex: (context) => ({
    hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: context },
  }),
  gemini: (context) => ({
    hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: context },
  }),
  cursor: (context) => ({ additional_context: context }),
};
/** What the agent reads on stdout when the hook has nothing to add (Codex: nothing at all). */
const NEUTRAL: Record<Agent, string> = { codex: "", gemini: "{}\n", cursor: "{}\n" };

let WALL_LIMIT_MS = HOOK_BUDGET_MS + 600;

afterEach(closeServers);

beforeAll(() => {
  const build = buildHook();
  expect(build.status, build.stderr).toBe(0);
  WALL_LIMIT_MS += 2 * nodeStartMs();
}, 60_000);

describe.each(AGENTS)("charter hook --agent %s", (agent) => {
  const session = SESSIONS[agent];
  const prompt = session.find(([name]) => typeOf(agent, name) === "UserPromptSubmit")!;
  const promptText = agentFixture(agent, prompt[1]).prompt as string;

  it("reports a session: the context in the agent's shape, every event with the agent named", async () => {
    const t = setup();
    const s = await t.start();
    for (const [name, fixture] of session) {
      const result = await run(
        ["hook", "--agent", agent, name],
        input(agent, fixture),
        t.env(s.port),
      );
      expect(result, name).toMatchObject({ code: EXIT.ok, stderr: "" });
      const type = typeOf(agent, name);
      if (type === "UserPromptSubmit")
        expect(JSON.parse(result.stdout)).toEqual(
          PROMPT_ANSWER[agent](`Principles for: ${promptText.slice(0, 20)}`),
        );
      else if (type === "SessionStart")
        expect(JSON.parse(result.stdout)).toEqual(
          START_ANSWER[agent](sessionContext(sessionOf(agent))),
        );
      else expect(result.stdout, name).toBe(NEUTRAL[agent]);
    }
    expect(s.store.events.map((e) => e.type)).toEqual(session.map(([name]) => typeOf(agent, name)));
    for (const event of s.store.events)
      expect(event).toMatchObject({ session_id: sessionOf(agent), agent: DIALECTS[agent].agent });
    const recorded = s.store.events.find((e) => e.type === "UserPromptSubmit")!;
    expect(recorded).toMatchObject({ prompt: promptText });
    // Only an agent that shows the context with the prompt may have the turn record it as given.
    if (DIALECTS[agent].promptContext) expect(recorded).not.toHaveProperty("context_delivered");
    else expect(recorded).toMatchObject({ context_delivered: false, agent_takes_context: false });
    if (agent === "cursor")
      for (const event of s.store.events) expect(event).toMatchObject({ agent_version: "2.0.77" });
  }, 60_000);

  it("without --agent, tells the agent from its event names or payloads", async () => {
    const t = setup();
    const s = await t.start();
    // Codex's names are Claude Code's: its turn_id tells it, on every event but SessionStart.
    const calls = agent === "codex" ? session.slice(1) : session;
    for (const [name, fixture] of calls) {
      const result = await run(["hook", name], input(agent, fixture), t.env(s.port));
      expect(result, name).toMatchObject({ code: EXIT.ok, stderr: "" });
    }
    expect(s.store.events.map((e) => e.agent)).toEqual(calls.map(() => DIALECTS[agent].agent));
  }, 60_000);

  it("server down: the agent gets its neutral answer in time, the events are spooled, then delivered once", async () => {
    const store = createEventsStore();
    const t = setup({ store });
    const server = await t.start();
    const { port } = server;
    await t.stop(server);

    const calls = session.slice(1, 3);
    for (const [name, fixture] of calls) {
      const result = await run(
        ["hook", "--agent", agent, name],
        input(agent, fixture),
        t.env(port),
      );
      expect(result.code).toBe(EXIT.ok);
      expect(result.ms).toBeLessThan(WALL_LIMIT_MS);
      expect(result.stdout).toBe(DIALECTS[agent].answer(typeOf(agent, name), undefined));
      expect(lines(result.stderr)).toEqual([
        expect.stringMatching(/^charter: server unreachable \(.+\); event spooled \(\d waiting\)$/),
      ]);
    }
    const spooled = t.spooledEvents();
    expect(spooled.map((e) => e.type)).toEqual(calls.map(([name]) => typeOf(agent, name)));
    // A prompt spooled was given no context, whatever the agent.
    expect(spooled[0]).toMatchObject({ type: "UserPromptSubmit", context_delivered: false });

    const s = await t.start(port);
    const [name, fixture] = session.at(-1)!;
    const result = await run(["hook", "--agent", agent, name], input(agent, fixture), t.env(port));
    expect(result).toMatchObject({ code: EXIT.ok, stderr: "" });
    expect(t.spooled()).toEqual([]);
    expect(s.store.events.map((e) => e.id).slice(0, 2)).toEqual(spooled.map((e) => e.id));
    expect(s.store.events).toHaveLength(3);
    expect(new Set(s.store.arrivals).size).toBe(s.store.arrivals.length);
  }, 60_000);

  it("server too slow for the budget: the prompt gets the neutral answer in time, spooled as given no context", async () => {
    const t = setup();
    const s = await t.start();
    s.behaviour.delayMs = 5_000;
    const [name, fixture] = prompt;
    const result = await run(
      ["hook", "--agent", agent, name],
      input(agent, fixture),
      t.env(s.port),
    );
    expect(result).toMatchObject({
      code: EXIT.ok,
      stdout: DIALECTS[agent].answer("UserPromptSubmit", undefined),
    });
    expect(result.ms).toBeLessThan(WALL_LIMIT_MS);
    expect(t.spooledEvents()).toEqual([
      expect.objectContaining({ type: "UserPromptSubmit", context_delivered: false }),
    ]);
  }, 20_000);

  it.each([
    ["not json", /^charter: the hook payload on stdin is not valid JSON/],
    ["{}", /^charter: the hook payload has no (session_id|conversation_id)$/],
  ])(
    "the payload %j: exit 0, one line, the neutral answer, nothing sent",
    async (text, line) => {
      const t = setup();
      const s = await t.start();
      const [name] = prompt;
      const result = await run(["hook", "--agent", agent, name], text, t.env(s.port));
      expect(result).toMatchObject({
        code: EXIT.ok,
        stdout: DIALECTS[agent].answer("UserPromptSubmit", undefined),
      });
      expect(lines(result.stderr)).toEqual([expect.stringMatching(line)]);
      expect(s.store.requests).toBe(0);
    },
    20_000,
  );
});

describe("charter hook --agent, on the command line", () => {
  const env = { HOME: "/nonexistent", CHARTER_URL: "http://127.0.0.1:9" };

  it.each([
    [
      ["hook", "--agent", "aider", "Stop"],
      'unknown agent "aider" for --agent (claude, codex, gemini, cursor)',
    ],
    [["hook", "--agent"], "--agent needs one of claude, codex, gemini, cursor"],
    [["hook", "--agent", "codex"], "missing the hook event"],
    [["hook", "--agent=codex", "--agent=gemini", "Stop"], "--agent given twice"],
  ])("%j is a command-line mistake: exit 1, never 2, one line", async (args, mistake) => {
    const result = await run(args, "{}", env);
    expect(result).toMatchObject({ code: EXIT.invalid, stdout: "" });
    expect(lines(result.stderr)).toEqual([`charter: ${mistake} (run with --help for usage)`]);
  });

  it.each([
    ["cursor", "stop", "{}\n"],
    ["gemini", "BeforeModel", "{}\n"],
    ["codex", "PreToolUse", ""],
  ])(
    "--agent %s %s: an event Charter does not take, exit 0 with the neutral answer",
    async (agent, name, stdout) => {
      const result = await run(["hook", `--agent=${agent}`, name], "{}", env);
      expect(result).toMatchObject({ code: EXIT.ok, stdout });
      expect(lines(result.stderr)).toEqual([expect.stringMatching(/^charter: ignoring /)]);
    },
  );

  it("the help names every agent and its events", async () => {
    const result = await run(["hook", "--help"], "", env);
    expect(result.code).toBe(EXIT.ok);
    for (const dialect of Object.values(DIALECTS)) {
      expect(result.stdout).toContain(dialect.label);
      for (const [name, type] of Object.entries(dialect.events))
        if (type) expect(result.stdout).toContain(name);
    }
  });
});
