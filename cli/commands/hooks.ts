import os from "node:os";
import path from "node:path";
import { Argument, Option, type Command } from "commander";
import { loadHookConfig, saveHookUrl, type HookConfig } from "../hook/config";
import { loadEnv, runningServerUrl } from "../runtime";
import { DIALECT_NAMES, DIALECTS, resolveEvent, type DialectName } from "../hook/dialects";
import { runHookOnStdin } from "../hook/hook-stdin";
import { flushSpool } from "../hook/run";
import { AGENT_HOOKS, AGENT_NAMES, type AgentHooks, type AgentName } from "../hook/install";
import { defaultBaseCommand } from "../hook/settings";

/**
 * Where the installed hooks will send, and how to change it. With no URL set, a Charter
 * server running from this clone is where they should go: its URL is written to the hook's
 * config file (the default, port 3000, is right only when the server runs there).
 */
function whereHooksSend(config: HookConfig): string {
  const file = config.file ?? "~/.config/charter/hook.json";
  if (config.urlFrom === "environment")
    return `The hooks send to ${config.url} (CHARTER_URL; the agent must run with it set too, or put "url" in ${file}).`;
  if (config.urlFrom === "file") return `The hooks send to ${config.url} (from ${file}).`;
  let running: string | null = null;
  try {
    running = runningServerUrl(loadEnv());
  } catch {
    // no valid environment here: nothing is known of a running server
  }
  if (running && config.file && running.replace(/\/+$/, "") !== config.url) {
    saveHookUrl(file, running);
    return `The hooks send to ${running}, the Charter server running now: written to ${file} (CHARTER_URL overrides it).`;
  }
  if (running) return `The hooks send to ${config.url}, the Charter server running now.`;
  return `The hooks send to ${config.url} (the default). If your server runs elsewhere, set CHARTER_URL=<its URL> where the agent runs, or put {"url": "<its URL>"} in ${file}.`;
}

type ScopeOptions = {
  agent: AgentName;
  project?: boolean | string;
  user?: boolean;
  settings?: string;
  command?: string;
};

function targetFile(agent: AgentHooks, options: ScopeOptions): string {
  if (options.settings) return path.resolve(options.settings);
  return agent.settingsPath(
    options.user ? "user" : "project",
    typeof options.project === "string" ? path.resolve(options.project) : process.cwd(),
    os.homedir(),
  );
}

/** "Charter's hooks" for Claude Code (as it always read), "Charter's Codex CLI hooks" for the others. */
function theirHooks(agent: AgentHooks): string {
  return agent.name === "claude" ? "Charter's hooks" : `Charter's ${agent.label} hooks`;
}

/** "claude (.claude/settings.json), codex (.codex/hooks.json), …": each agent's file, relative to its directory. */
const SETTINGS_FILES = AGENT_NAMES.map(
  (name) => `${name} (${AGENT_HOOKS[name].settingsPath("project", "", "")})`,
).join(", ");

function scopeOptions(command: Command): Command {
  return command
    .addOption(
      new Option("--agent <name>", `the agent, and so the file: ${SETTINGS_FILES}`)
        .choices(AGENT_NAMES)
        .default("claude"),
    )
    .addOption(
      new Option(
        "--project [dir]",
        "the agent's project settings file, in <dir> or the current directory (default)",
      ).conflicts("user"),
    )
    .addOption(
      new Option("--user", "the agent's settings file in your home directory").conflicts("project"),
    )
    .option("--settings <path>", "this settings file instead (the agent's format)");
}

/**
 * `charter hooks install|uninstall [--agent claude|codex|gemini|cursor]` (each agent's own
 * settings file: cli/hook/install/), and `charter hook <event>` and `charter spool flush`
 * for --help and for running without dist/hook.mjs: bin/charter.mjs normally runs those
 * two from the bundle, before this CLI loads.
 */
export function registerHooks(program: Command): void {
  const hooks = program
    .command("hooks")
    .description(
      "Install or remove Charter's hooks for Claude Code, Codex CLI, Gemini CLI or Cursor",
    );

  scopeOptions(hooks.command("install"))
    .description(
      "Add Charter's hooks to an agent's settings (Claude Code by default), keeping everything else (running it twice changes nothing)",
    )
    .option(
      "--command <cmd>",
      "how the agent runs charter (default: <path of node> <path of bin/charter-hook.cjs>)",
    )
    .action((options: ScopeOptions) => {
      const agent = AGENT_HOOKS[options.agent];
      const file = targetFile(agent, options);
      const base = options.command?.trim() || defaultBaseCommand();
      const { changed } = agent.install(file, base);
      console.log(
        changed.length === 0
          ? `${theirHooks(agent)} are already installed in ${file}.`
          : `Installed ${theirHooks(agent)} (${changed.join(", ")}) in ${file}.`,
      );
      for (const note of agent.notes) console.log(note);
      const config = loadHookConfig();
      console.log(whereHooksSend(config));
      if (!config.apiKey)
        console.log(
          `They need an API key with the ingest scope: set CHARTER_API_KEY, or add "api_key" to ${config.file ?? "~/.config/charter/hook.json"}.`,
        );
    });

  scopeOptions(hooks.command("uninstall"))
    .description(
      "Remove Charter's hooks from an agent's settings (Claude Code by default), leaving everything else as it was",
    )
    .option("--command <cmd>", "also remove hooks run through this custom command")
    .action((options: ScopeOptions) => {
      const agent = AGENT_HOOKS[options.agent];
      const file = targetFile(agent, options);
      const { exists, removed, empty } = agent.uninstall(
        file,
        options.command?.trim() || undefined,
      );
      if (!exists || removed === 0) {
        console.log(`No Charter hooks in ${file}.`);
        return;
      }
      console.log(
        `Removed ${removed} Charter hook ${removed === 1 ? "entry" : "entries"} from ${file}.${
          empty ? " Nothing else is in it now; it is left in place (delete it if you like)." : ""
        }`,
      );
    });

  program
    .command("hook")
    .description(
      "Report an agent's hook event (payload JSON on stdin) to the server; spools it when the server is unreachable",
    )
    .addOption(
      new Option("--agent <name>", "the agent's dialect (default: told by the payload)").choices(
        DIALECT_NAMES,
      ),
    )
    .addArgument(new Argument("<event>", "the hook event, in Charter's or the agent's own name"))
    .action(async (event: string, options: { agent?: DialectName }) => {
      // Used only where dist/hook.cjs is not built; it answers as that entry does.
      const call = resolveEvent(event, options.agent ? DIALECTS[options.agent] : undefined);
      if (call.kind === "ignore") {
        process.stderr.write(`charter: ${call.line}\n`);
        return;
      }
      process.exitCode = await runHookOnStdin(call.type, {
        config: loadHookConfig(),
        dialect: call.dialect,
      });
    });

  program
    .command("spool")
    .description("Events the hook could not deliver")
    .command("flush")
    .description(
      'Send every spooled event, oldest first; prints "flushed N, M left" and exits 1 when some remain',
    )
    .action(async () => {
      process.exitCode = await flushSpool(loadHookConfig());
    });
}
