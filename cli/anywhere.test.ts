import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandName, COMMANDS } from "./commands";
import { CLAUDE_INSTALLED_EVENTS } from "./hook/events";
import { HOOK_TIMEOUT_SECONDS } from "./hook/settings";
import { ensureBundles, loadedModules, TRACE_IMPORTS } from "@/test/cli-bundle";

const ROOT = path.resolve(import.meta.dirname, "..");
const BIN = path.join(ROOT, "bin", "charter.mjs");
const BUNDLE = path.join(ROOT, "dist", "cli", "main.mjs");

let outside: string;
function charter(
  args: string[],
  options: { input?: string; cwd?: string; nodeArgs?: string[] } = {},
): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [...(options.nodeArgs ?? []), BIN, ...args], {
    cwd: options.cwd ?? outside,
    input: options.input ?? "",
    encoding: "utf8",
    timeout: 60_000,
  });
}

beforeAll(() => {
  expect(ensureBundles()).toBeNull();
  outside = mkdtempSync(path.join(os.tmpdir(), "charter-anywhere-"));
}, 120_000);
afterAll(() => rmSync(outside, { recursive: true, force: true }));

describe("the charter command, run outside the repository", () => {
  it("--help lists every command from the bundle, loading commander and nothing else", () => {
    const result = charter(["--help"], { nodeArgs: ["--import", TRACE_IMPORTS] });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("Usage: charter [options] [command]");
    for (const entry of COMMANDS) expect(result.stdout).toContain(`  ${entry.usage}`);
    const loaded = loadedModules(result.stderr);
    expect(loaded).toContain(new URL(`file://${BUNDLE}`).href);
    const packages = new Set(
      loaded
        .filter((url) => url.includes("/node_modules/"))
        .map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)![1]),
    );
    expect([...packages]).toEqual(["commander"]);
  });

  it("score --json scores a turn given on stdin", () => {
    const turn = {
      action: "send_message",
      has_mutations: true,
      turn_result: {
        response: "Fixed the rounding and added a test; the suite passes.",
        tools: [{ name: "Edit" }],
        tools_passed: true,
      },
    };
    const result = charter(["score", "--json"], { input: JSON.stringify(turn) });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const output = JSON.parse(result.stdout) as {
      scores: Record<string, number>;
      normalized_total: number;
      max_total: number;
    };
    expect(Object.keys(output.scores).length).toBeGreaterThan(0);
    expect(output.normalized_total).toBeGreaterThan(0);
    expect(output.normalized_total).toBeLessThanOrEqual(1);
  });

  it("hooks install --project <dir> writes absolute commands that work from any directory", () => {
    const project = path.join(outside, "my project");
    mkdirSync(project);
    const result = charter(["hooks", "install", "--project", project]);
    expect(result.status).toBe(0);
    const file = path.join(project, ".claude", "settings.json");
    expect(result.stdout).toContain(
      `Installed Charter's hooks (${CLAUDE_INSTALLED_EVENTS.join(", ")}) in ${file}.`,
    );
    const settings = JSON.parse(readFileSync(file, "utf8")) as {
      hooks: Record<string, { hooks: { command: string }[] }[]>;
    };
    const command = settings.hooks.UserPromptSubmit![0]!.hooks[0]!.command;
    expect(command).toBe(
      `${process.execPath} ${path.join(ROOT, "bin", "charter-hook.cjs")} hook UserPromptSubmit`,
    );

    // Another directory, no server listening, no charter on the PATH: the agent goes on (exit 0), in time.
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), "charter-elsewhere-"));
    try {
      const payload = {
        session_id: "anywhere-1",
        transcript_path: path.join(elsewhere, "t.jsonl"),
        cwd: elsewhere,
        hook_event_name: "UserPromptSubmit",
        prompt: "drop the users table",
      };
      const started = performance.now();
      const hook = spawnSync("/bin/sh", ["-c", command], {
        cwd: elsewhere,
        input: JSON.stringify(payload),
        encoding: "utf8",
        env: {
          NODE_ENV: "production",
          PATH: "/usr/bin:/bin",
          HOME: elsewhere,
          CHARTER_URL: "http://127.0.0.1:9",
          CHARTER_API_KEY: "chk_anywhere_test_key_that_is_long_enough",
          CHARTER_SPOOL_DIR: path.join(elsewhere, "spool"),
        },
        timeout: HOOK_TIMEOUT_SECONDS * 1000,
      });
      const elapsed = performance.now() - started;
      expect(hook.error).toBeUndefined();
      expect(hook.status).toBe(0);
      expect(elapsed).toBeLessThan(HOOK_TIMEOUT_SECONDS * 1000);
      expect(existsSync(path.join(elsewhere, "spool"))).toBe(true);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});

describe("the command table", () => {
  it("names every top-level command its modules define, each loading the module that defines it", async () => {
    const defined = new Set<string>();
    for (const entry of COMMANDS) {
      const program = new Command();
      (await entry.load())(program);
      const names = program.commands.map((c) => c.name());
      expect(names).toContain(commandName(entry));
      for (const name of names) defined.add(name);
    }
    expect([...defined].sort()).toEqual(COMMANDS.map(commandName).sort());
  });
});
