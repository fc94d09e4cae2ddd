import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { hooksCommand } from "@/test/hooks-command";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CliError } from "../../errors";
import { DIALECTS } from "../dialects";
import { defaultBaseCommand, HOOK_TIMEOUT_SECONDS } from "../settings";
import { CODEX_EVENTS } from "./codex";
import { CURSOR_EVENTS } from "./cursor";
import { GEMINI_EVENTS } from "./gemini";
import { AGENT_HOOKS } from "./index";

const charter = hooksCommand;

const base = defaultBaseCommand();
const run = (agent: string, event: string) =>
  JSON.stringify(`${base} hook --agent ${agent} ${event}`);

/** A group of one Charter entry, as Codex's hooks.json and Gemini CLI's settings hold it (10 spaces in). */
const group = (entry: string, matcher?: string) =>
  `      {${matcher ? `\n        "matcher": "${matcher}",` : ""}
        "hooks": [
          {
${entry}
          }
        ]
      }`;

/** What a fresh install writes, literally: the file every agent reads. */
const FRESH = {
  codex: `{
  "hooks": {
${CODEX_EVENTS.map(
  (event) => `    "${event}": [
${group(
  `            "type": "command",
            "command": ${run("codex", event)},
            "timeout": ${HOOK_TIMEOUT_SECONDS}`,
  event === "PostToolUse" ? "*" : undefined,
)}
    ]`,
).join(",\n")}
  }
}
`,
  gemini: `{
  "hooks": {
${GEMINI_EVENTS.map(
  (event) => `    "${event}": [
${group(
  `            "name": "charter",
            "type": "command",
            "command": ${run("gemini", event)},
            "timeout": ${HOOK_TIMEOUT_SECONDS * 1000}`,
  event === "AfterTool" ? "*" : undefined,
)}
    ]`,
).join(",\n")}
  }
}
`,
  cursor: `{
  "version": 1,
  "hooks": {
${CURSOR_EVENTS.map(
  (event) => `    "${event}": [
      {
        "command": ${run("cursor", event)},
        "timeout": ${HOOK_TIMEOUT_SECONDS}
      }
    ]`,
).join(",\n")}
  }
}
`,
};

/** Files people already have: other tools' hooks (one sharing an event with Charter), other keys, their own layout. */
const EXISTING = {
  codex: `{
  "$schema": "https://www.schemastore.org/codex-hooks.json",
  "hooks": {
    "PreToolUse": [{ "matcher": "apply_patch", "hooks": [{ "type": "command", "command": "./guard.sh" }] }],
    "PostToolUse": [
      {
        "matcher": "Bash",
        "hooks": [{ "type": "command", "command": "python3 ~/.codex/audit.py", "timeout": 10 }]
      }
    ]
  }
}
`,
  gemini: `{
  // Gemini CLI reads comments in its settings
  "model": { "name": "gemini-2.5-pro" },
  "hooksConfig": { "notifications": false },
  "hooks": {
    "BeforeTool": [
      {
        "matcher": "write_file|replace",
        "hooks": [
          {
            "name": "security-check",
            "type": "command",
            "command": "$GEMINI_PROJECT_DIR/.gemini/hooks/security.sh",
            "timeout": 5000
          }
        ]
      }
    ],
    "AfterAgent": [
      { /* tell me */ "hooks": [{ "type": "command", "command": "notify-send done" }] }
    ]
  }
}
`,
  cursor: `{
    "version": 1,
    "hooks": {
        "afterFileEdit": [{ "command": "./hooks/format.sh" }],
        "postToolUse": [
            { "command": "./hooks/audit.sh", "matcher": "Shell" }
        ]
    }
}
`,
};

const AGENTS = [
  { agent: "codex", folder: ".codex", file: "hooks.json", events: CODEX_EVENTS },
  { agent: "gemini", folder: ".gemini", file: "settings.json", events: GEMINI_EVENTS },
  { agent: "cursor", folder: ".cursor", file: "hooks.json", events: CURSOR_EVENTS },
] as const;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "charter-agents-"));
  // Nothing of the developer's: the hook's config file and home are the test's own.
  vi.stubEnv("CHARTER_URL", "http://127.0.0.1:9");
  vi.stubEnv("CHARTER_API_KEY", "chk_test");
  vi.stubEnv("CHARTER_HOOK_CONFIG", path.join(dir, "hook.json"));
  vi.stubEnv("HOME", path.join(dir, "home"));
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(AGENTS)("charter hooks install --agent $agent", ({ agent, folder, file, events }) => {
  const label = AGENT_HOOKS[agent].label;

  it("writes the project's file, literally, and a second run changes nothing", async () => {
    const project = path.join(dir, "project");
    const target = path.join(project, folder, file);
    const said = await charter("hooks", "install", "--agent", agent, "--project", project);
    expect(said).toContain(
      `Installed Charter's ${label} hooks (${events.join(", ")}) in ${target}.`,
    );
    for (const note of AGENT_HOOKS[agent].notes) expect(said).toContain(note);
    const written = readFileSync(target, "utf8");
    expect(written).toBe(FRESH[agent]);

    expect(await charter("hooks", "install", "--agent", agent, "--project", project)).toContain(
      `Charter's ${label} hooks are already installed in ${target}.`,
    );
    expect(readFileSync(target, "utf8")).toBe(written);

    expect(await charter("hooks", "uninstall", "--agent", agent, "--project", project)).toContain(
      `Removed ${events.length} Charter hook entries from ${target}. Nothing else is in it now; it is left in place`,
    );
    expect(readFileSync(target, "utf8")).toBe(
      agent === "cursor" ? '{\n  "version": 1\n}\n' : "{}\n",
    );
  });

  it("writes the user's file under HOME with --user", async () => {
    await charter("hooks", "install", "--agent", agent, "--user");
    const target = path.join(dir, "home", folder, file);
    expect(readFileSync(target, "utf8")).toBe(FRESH[agent]);
    expect(AGENT_HOOKS[agent].settingsPath("user", "/work/app", "/home/me")).toBe(
      path.join("/home/me", folder, file),
    );
    expect(AGENT_HOOKS[agent].settingsPath("project", "/work/app", "/home/me")).toBe(
      path.join("/work/app", folder, file),
    );
  });

  it("merges into a file with other hooks and settings, and uninstall gives it back byte for byte", async () => {
    const target = path.join(dir, folder, file);
    mkdirSync(path.dirname(target));
    writeFileSync(target, EXISTING[agent]);
    await charter("hooks", "install", "--agent", agent, "--settings", target);
    const installed = readFileSync(target, "utf8");
    // Every line of the file is still there, in order, with Charter's lines between them.
    const lines = installed.split("\n");
    let at = 0;
    for (const line of EXISTING[agent].split("\n").map((l) => l.replace(/,$/, ""))) {
      while (at < lines.length && lines[at]!.replace(/,$/, "") !== line) at += 1;
      expect(at, `kept: ${line}`).toBeLessThan(lines.length);
    }
    await charter("hooks", "install", "--agent", agent, "--settings", target);
    expect(readFileSync(target, "utf8")).toBe(installed);

    expect(await charter("hooks", "uninstall", "--agent", agent, "--settings", target)).toBe(
      `Removed ${events.length} Charter hook entries from ${target}.`,
    );
    expect(readFileSync(target, "utf8")).toBe(EXISTING[agent]);
    expect(await charter("hooks", "uninstall", "--agent", agent, "--settings", target)).toBe(
      `No Charter hooks in ${target}.`,
    );
  });

  it("takes only Charter's entry out of a group it shares, and leaves empty lists it did not empty", async () => {
    const target = path.join(dir, file);
    const event = events.at(-1)!;
    const ours = { command: `charter hook --agent ${agent} ${event}` };
    const mine = { command: "say done" };
    const shared =
      agent === "cursor"
        ? { version: 1, hooks: { [event]: [mine, ours], preCompact: [] } }
        : { hooks: { [event]: [{ hooks: [mine, ours] }], PreCompress: [] } };
    writeFileSync(target, JSON.stringify(shared, null, 2));
    await charter("hooks", "uninstall", "--agent", agent, "--settings", target);
    expect(JSON.parse(readFileSync(target, "utf8"))).toEqual(
      agent === "cursor"
        ? { version: 1, hooks: { [event]: [mine], preCompact: [] } }
        : { hooks: { [event]: [{ hooks: [mine] }], PreCompress: [] } },
    );
  });

  it("updates an older Charter entry in place: another install's path, a Claude Code style command", async () => {
    const target = path.join(dir, file);
    const [first, second] = events;
    const entry = (command: string) =>
      agent === "cursor" ? { command, timeout: 60 } : { hooks: [{ type: "command", command }] };
    writeFileSync(
      target,
      JSON.stringify({
        hooks: {
          [first]: [entry(`node /old/place/bin/charter-hook.cjs hook --agent ${agent} ${first}`)],
          [second]: [entry("node /old/place/bin/charter.mjs hook UserPromptSubmit")],
        },
      }),
    );
    await charter("hooks", "install", "--agent", agent, "--settings", target);
    const hooks = JSON.parse(readFileSync(target, "utf8")).hooks as Record<string, unknown[]>;
    for (const event of [first, second]) {
      expect(hooks[event]).toHaveLength(1);
      expect(JSON.stringify(hooks[event])).toContain(
        JSON.stringify(`${base} hook --agent ${agent} ${event}`),
      );
      expect(JSON.stringify(hooks[event])).not.toContain("/old/place");
    }
  });

  it("installs a custom command, which uninstall removes when told it", async () => {
    const target = path.join(dir, file);
    await charter(
      "hooks",
      "install",
      "--agent",
      agent,
      "--settings",
      target,
      "--command",
      "/opt/tools/wrap",
    );
    expect(readFileSync(target, "utf8")).toContain(
      JSON.stringify(`/opt/tools/wrap hook --agent ${agent} ${events[0]}`),
    );
    expect(await charter("hooks", "uninstall", "--agent", agent, "--settings", target)).toContain(
      "No Charter hooks",
    );
    expect(
      await charter(
        "hooks",
        "uninstall",
        "--agent",
        agent,
        "--settings",
        target,
        "--command",
        "/opt/tools/wrap",
      ),
    ).toContain(`Removed ${events.length} Charter hook entries`);
  });

  it.each([
    ["not JSON", '{\n  "hooks": {\n    "Stop": [\n  }\n}\n', "is not valid JSON"],
    ["JSON with a trailing comma", '{\n  "model": "x",\n}\n', "is not valid JSON"],
    ["hooks that are not an object", '{ "hooks": [] }', '"hooks" is not an object'],
    [
      "a list that is not a list",
      `{ "hooks": { "${events[0]}": {} } }`,
      `hooks.${events[0]} is not a list`,
    ],
  ])("does not touch a file holding %s", async (_, text, problem) => {
    const target = path.join(dir, file);
    writeFileSync(target, text);
    for (const verb of ["install", "uninstall"]) {
      if (verb === "uninstall" && !problem.includes("valid JSON")) continue;
      const error = await charter("hooks", verb, "--agent", agent, "--settings", target).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(CliError);
      expect((error as Error).message).toContain(`${target}`);
      expect((error as Error).message).toContain(problem);
      expect((error as Error).message).toContain("fix it by hand first");
    }
    expect(readFileSync(target, "utf8")).toBe(text);
    expect(readdirSync(dir).sort()).toEqual([file]);
  });
});

describe("comments", () => {
  it("are refused where the agent refuses them (Codex, Cursor) and kept where it reads them (Gemini CLI)", async () => {
    const text = '{\n  // mine\n  "hooks": {}\n}\n';
    for (const agent of ["codex", "cursor"]) {
      const target = path.join(dir, `${agent}.json`);
      writeFileSync(target, text);
      await expect(
        charter("hooks", "install", "--agent", agent, "--settings", target),
      ).rejects.toThrow(
        `${target} is not valid JSON: a comment, which this file may not hold at line 2, column 3; fix it by hand first.`,
      );
    }
    const target = path.join(dir, "gemini.json");
    writeFileSync(target, text);
    await charter("hooks", "install", "--agent", "gemini", "--settings", target);
    expect(readFileSync(target, "utf8")).toMatch(
      /^\{\n {2}\/\/ mine\n {2}"hooks": \{\n {4}"SessionStart"/,
    );
  });
});

describe("--agent", () => {
  it("defaults to Claude Code, as before", async () => {
    const project = path.join(dir, "project");
    expect(await charter("hooks", "install", "--project", project)).toContain(
      `Installed Charter's hooks (`,
    );
    expect(readdirSync(project)).toEqual([".claude"]);
  });

  it("refuses an agent it does not know", async () => {
    await expect(charter("hooks", "install", "--agent", "aider")).rejects.toMatchObject({
      code: "commander.invalidArgument",
    });
  });
});

describe("the events installed", () => {
  it.each(AGENTS)("are those charter hook --agent $agent takes", ({ agent, events }) => {
    const taken = Object.entries(DIALECTS[agent].events)
      .filter(([, type]) => type !== null)
      .map(([name]) => name);
    expect([...events].sort()).toEqual(taken.sort());
  });
});
