import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "./hook/dialects";
import { HOOK_TIMEOUT_SECONDS } from "./hook/settings";
import { ensureBundles } from "@/test/cli-bundle";

// What `charter hooks install --agent <name>` writes is a command that works as the agent
// runs it: from whatever directory, with no charter on the PATH, and with no server up it
// passes (exit 0) and keeps the event in the spool.

const BIN = path.resolve(import.meta.dirname, "..", "bin", "charter.mjs");
let dir: string;

beforeAll(() => {
  expect(ensureBundles()).toBeNull();
  dir = mkdtempSync(path.join(os.tmpdir(), "charter-agents-run-"));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Installs for `agent` into a new project through the real `charter`, and reads back the command written for `event`. */
function installedCommand(agent: string, event: string): string {
  const project = mkdtempSync(path.join(dir, `${agent} project `));
  const result = spawnSync(
    process.execPath,
    [BIN, "hooks", "install", "--agent", agent, "--project", project],
    {
      cwd: dir,
      encoding: "utf8",
      timeout: 60_000,
      env: {
        ...process.env,
        HOME: dir,
        CHARTER_URL: "http://127.0.0.1:9",
        CHARTER_HOOK_CONFIG: path.join(dir, "hook.json"),
      },
    },
  );
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
  const file = {
    claude: ".claude/settings.json",
    codex: ".codex/hooks.json",
    gemini: ".gemini/settings.json",
    cursor: ".cursor/hooks.json",
  }[agent]!;
  const settings = JSON.parse(readFileSync(path.join(project, file), "utf8")) as {
    hooks: Record<string, { command?: string; hooks?: { command: string }[] }[]>;
  };
  const item = settings.hooks[event]![0]!;
  return item.hooks ? item.hooks[0]!.command : item.command!;
}

/** Runs a hook command as an agent would: sh -c, in a fresh directory, payload on stdin, no server listening. */
function runAsAgent(command: string, payload: (cwd: string) => object) {
  const elsewhere = mkdtempSync(path.join(dir, "elsewhere-"));
  const spool = path.join(elsewhere, "spool");
  const started = performance.now();
  const result = spawnSync("/bin/sh", ["-c", command], {
    cwd: elsewhere,
    input: JSON.stringify(payload(elsewhere)),
    encoding: "utf8",
    env: {
      NODE_ENV: "production",
      PATH: "/usr/bin:/bin",
      HOME: elsewhere,
      CHARTER_URL: "http://127.0.0.1:9",
      CHARTER_API_KEY: "chk_agents_run_test_key_that_is_long_enough",
      CHARTER_SPOOL_DIR: spool,
    },
    timeout: HOOK_TIMEOUT_SECONDS * 1000,
  });
  const spooled = existsSync(spool)
    ? readdirSync(spool, { withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => readFileSync(path.join(spool, entry.name), "utf8"))
    : [];
  return { result, elapsed: performance.now() - started, spooled };
}

const PROMPT = "drop the users table";

describe("an installed hook command, run from another directory with no server", () => {
  it("claude: spools the prompt and lets the agent go on", () => {
    const command = installedCommand("claude", "UserPromptSubmit");
    const { result, elapsed, spooled } = runAsAgent(command, (cwd) => ({
      session_id: "agents-run-claude",
      transcript_path: path.join(cwd, "t.jsonl"),
      cwd,
      hook_event_name: "UserPromptSubmit",
      prompt: PROMPT,
    }));
    expect(result.error).toBeUndefined();
    expect(result.status).toBe(0);
    expect(elapsed).toBeLessThan(HOOK_TIMEOUT_SECONDS * 1000);
    expect(spooled.filter((text) => text.includes(PROMPT))).toHaveLength(1);
  });

  // The agents' own payloads, as their makers document them, for the prompt event.
  const PROMPTS = [
    {
      agent: "codex" as const,
      event: "UserPromptSubmit",
      payload: (cwd: string) => ({
        session_id: "agents-run-codex",
        turn_id: "turn-1",
        transcript_path: null,
        cwd,
        hook_event_name: "UserPromptSubmit",
        model: "gpt-5-codex",
        prompt: PROMPT,
      }),
    },
    {
      agent: "gemini" as const,
      event: "BeforeAgent",
      payload: (cwd: string) => ({
        session_id: "agents-run-gemini",
        transcript_path: path.join(cwd, "t.json"),
        cwd,
        hook_event_name: "BeforeAgent",
        timestamp: new Date().toISOString(),
        prompt: PROMPT,
      }),
    },
    {
      agent: "cursor" as const,
      event: "beforeSubmitPrompt",
      payload: (cwd: string) => ({
        conversation_id: "agents-run-cursor",
        generation_id: "generation-1",
        model: "default",
        hook_event_name: "beforeSubmitPrompt",
        cursor_version: "2.4.0",
        workspace_roots: [cwd],
        user_email: null,
        prompt: PROMPT,
        attachments: [],
      }),
    },
  ];

  it.each(PROMPTS)(
    "$agent: spools the prompt and lets the agent go on",
    ({ agent, event, payload }) => {
      const command = installedCommand(agent, event);
      expect(command).toMatch(new RegExp(` hook --agent ${agent} ${event}$`));
      const { result, elapsed, spooled } = runAsAgent(command, payload);
      expect(result.error).toBeUndefined();
      expect(result.status).toBe(0);
      expect(elapsed).toBeLessThan(HOOK_TIMEOUT_SECONDS * 1000);
      const [kept] = spooled.filter((text) => text.includes(PROMPT));
      expect(spooled).toHaveLength(1);
      expect(kept).toContain(`"agent":"${DIALECTS[agent].agent}"`);
    },
  );

  it("codex, gemini, cursor: the command written is Claude Code's, in the agent's dialect", () => {
    const base = installedCommand("claude", "Stop").replace(/ hook Stop$/, "");
    for (const { agent, event } of PROMPTS)
      expect(installedCommand(agent, event)).toBe(`${base} hook --agent ${agent} ${event}`);
  });
});
