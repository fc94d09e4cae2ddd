import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { hooksCommand } from "@/test/hooks-command";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CliError } from "../errors";
import { CLAUDE_INSTALLED_EVENTS } from "./events";
import {
  CHARTER_HOOK_BIN,
  defaultBaseCommand,
  HOOK_MATCHERS,
  HOOK_TIMEOUT_SECONDS,
  installHooks,
  isCharterEntry,
  settingsPath,
  uninstallHooks,
} from "./settings";

/** Settings a developer already has: other keys, hooks of other tools, one sharing an event with Charter. */
const EXISTING = {
  model: "opus",
  permissions: { allow: ["Bash(npm test:*)"], deny: [] },
  hooks: {
    PostToolUse: [
      {
        matcher: "Edit|Write",
        hooks: [{ type: "command", command: 'npx prettier --write "$CLAUDE_FILE_PATHS"' }],
      },
    ],
    Notification: [
      { matcher: "", hooks: [{ type: "command", command: "notify-send Claude", timeout: 10 }] },
    ],
  },
  env: { FOO: "1" },
};

const charter = hooksCommand;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "charter-settings-"));
});
afterEach(() => vi.restoreAllMocks());

describe("charter hooks install / uninstall", () => {
  it("round-trips a settings file that had other hooks and keys, byte for byte", async () => {
    const file = path.join(dir, "settings.json");
    const original = `${JSON.stringify(EXISTING, null, 4)}\n`;
    writeFileSync(file, original);

    expect(await charter("hooks", "install", "--settings", file)).toContain(
      `Installed Charter's hooks (${CLAUDE_INSTALLED_EVENTS.join(", ")})`,
    );
    const installed = readFileSync(file, "utf8");
    const settings = JSON.parse(installed);
    expect(installed.split("\n")[1]).toMatch(/^ {4}"model"/);
    expect(settings).toMatchObject({
      model: "opus",
      permissions: EXISTING.permissions,
      env: EXISTING.env,
      hooks: { Notification: EXISTING.hooks.Notification },
    });
    for (const event of CLAUDE_INSTALLED_EVENTS) {
      const ours = {
        matcher: HOOK_MATCHERS[event],
        hooks: [
          {
            type: "command",
            command: `${defaultBaseCommand()} hook ${event}`,
            timeout: HOOK_TIMEOUT_SECONDS,
          },
        ],
      };
      expect(settings.hooks[event]).toEqual(
        event === "PostToolUse" ? [EXISTING.hooks.PostToolUse[0], ours] : [ours],
      );
    }
    expect(settings.hooks.Stop[0].hooks[0].command).toBe(
      `${process.execPath} ${CHARTER_HOOK_BIN} hook Stop`,
    );

    expect(await charter("hooks", "install", "--settings", file)).toContain("already installed");
    expect(readFileSync(file, "utf8")).toBe(installed);

    expect(await charter("hooks", "uninstall", "--settings", file)).toContain(
      `Removed ${CLAUDE_INSTALLED_EVENTS.length} Charter hook entries`,
    );
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(EXISTING);
    expect(readFileSync(file, "utf8")).toBe(original);

    expect(await charter("hooks", "uninstall", "--settings", file)).toContain("No Charter hooks");
    expect(readFileSync(file, "utf8")).toBe(original);
  });

  it("creates the settings file, and uninstall leaves no empty hooks behind", async () => {
    const file = path.join(dir, ".claude", "settings.json");
    await charter("hooks", "install", "--settings", file);
    expect(Object.keys(JSON.parse(readFileSync(file, "utf8")).hooks)).toEqual([
      ...CLAUDE_INSTALLED_EVENTS,
    ]);
    await charter("hooks", "uninstall", "--settings", file);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({});
  });

  it("installs a custom command, and uninstall recognises it", async () => {
    const file = path.join(dir, "settings.json");
    await charter("hooks", "install", "--settings", file, "--command", "/opt/tools/agent-wrapper");
    expect(JSON.parse(readFileSync(file, "utf8")).hooks.Stop[0].hooks[0].command).toBe(
      "/opt/tools/agent-wrapper hook Stop",
    );
    expect(await charter("hooks", "uninstall", "--settings", file)).toContain("No Charter hooks");
    await charter(
      "hooks",
      "uninstall",
      "--settings",
      file,
      "--command",
      "/opt/tools/agent-wrapper",
    );
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({});
  });

  it("refuses --project with --user", async () => {
    await expect(charter("hooks", "install", "--project", "--user")).rejects.toMatchObject({
      code: "commander.conflictingOption",
    });
  });

  it("does not touch a file that is not JSON", async () => {
    const file = path.join(dir, "settings.json");
    writeFileSync(file, "{ nope");
    await expect(charter("hooks", "install", "--settings", file)).rejects.toBeInstanceOf(CliError);
    expect(readFileSync(file, "utf8")).toBe("{ nope");
    expect(readdirSync(dir)).toEqual(["settings.json"]);
  });
});

describe("installHooks / uninstallHooks", () => {
  const base = defaultBaseCommand("/srv/charter/bin/charter-hook.cjs");

  it("updates a Charter entry in place (new path, new timeout) instead of adding a second", () => {
    const old = {
      hooks: {
        Stop: [
          {
            matcher: "",
            hooks: [
              {
                type: "command",
                command: "node /old/place/bin/charter.mjs hook Stop",
                timeout: 60,
              },
            ],
          },
        ],
      },
    };
    const { settings, changed } = installHooks(old, base);
    expect(changed).toEqual([...CLAUDE_INSTALLED_EVENTS]);
    expect((settings.hooks as Record<string, unknown>).Stop).toEqual([
      {
        matcher: "",
        hooks: [{ type: "command", command: `${base} hook Stop`, timeout: HOOK_TIMEOUT_SECONDS }],
      },
    ]);
  });

  it("removes only Charter's entries from a group it shares with another tool", () => {
    const shared = {
      hooks: {
        Stop: [
          {
            matcher: "",
            hooks: [
              { type: "command", command: "say done" },
              { type: "command", command: "charter hook Stop" },
            ],
          },
        ],
      },
    };
    expect(uninstallHooks(shared)).toEqual({
      removed: 1,
      settings: {
        hooks: { Stop: [{ matcher: "", hooks: [{ type: "command", command: "say done" }] }] },
      },
    });
  });

  it("leaves empty lists it did not empty", () => {
    const settings = {
      hooks: {
        Stop: [],
        PostToolUse: [{ matcher: "*", hooks: [] }],
        SessionEnd: [{ hooks: [{ type: "command", command: "charter hook SessionEnd" }] }],
      },
    };
    expect(uninstallHooks(settings).settings).toEqual({
      hooks: { Stop: [], PostToolUse: [{ matcher: "*", hooks: [] }] },
    });
  });

  it.each([
    ["node /home/me/charter/bin/charter.mjs hook Stop", true],
    ["node '/home/me/my charter/bin/charter.mjs' hook PostToolUse", true],
    ["'/usr/bin/node' /home/me/charter/bin/charter-hook.cjs hook UserPromptSubmit", true],
    ["node '/home/me/my charter/bin/charter-hook.cjs' hook Stop", true],
    ["charter hook UserPromptSubmit", true],
    ["npx charter hook SessionEnd", true],
    ["charter hook PreToolUse", false],
    ["charter-lint hook Stop", false],
    ["./scripts/notify hook Stop", false],
    ["charter retrieve hook Stop x", false],
  ])("isCharterEntry(%j) is %s", (command, expected) => {
    expect(isCharterEntry({ type: "command", command })).toBe(expected);
  });

  it("quotes a bin path the shell would split", () => {
    expect(defaultBaseCommand("/home/me/my charter/bin/charter.mjs", "/opt/node 20/bin/node")).toBe(
      "'/opt/node 20/bin/node' '/home/me/my charter/bin/charter.mjs'",
    );
  });

  it("finds the project and user settings files", () => {
    expect(settingsPath("project", "/work/app", "/home/me")).toBe(
      "/work/app/.claude/settings.json",
    );
    expect(settingsPath("user", "/work/app", "/home/me")).toBe("/home/me/.claude/settings.json");
  });
});
