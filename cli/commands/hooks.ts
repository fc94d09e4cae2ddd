import path from "node:path";
import { Argument, Option, type Command } from "commander";
import { loadHookConfig } from "../hook/config";
import { HOOK_EVENTS, type HookEventName } from "../hook/events";
import { runHookOnStdin } from "../hook/hook-stdin";
import { flushSpool } from "../hook/run";
import {
  defaultBaseCommand,
  installHooks,
  readSettings,
  settingsPath,
  uninstallHooks,
  writeSettings,
  type SettingsScope,
} from "../hook/settings";

type ScopeOptions = { project?: boolean | string; user?: boolean; settings?: string };

function targetFile(options: ScopeOptions): string {
  if (options.settings) return path.resolve(options.settings);
  const scope: SettingsScope = options.user ? "user" : "project";
  return settingsPath(
    scope,
    typeof options.project === "string" ? path.resolve(options.project) : process.cwd(),
  );
}

function scopeOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        "--project [dir]",
        "the project's .claude/settings.json, in <dir> or the current directory (default)",
      ).conflicts("user"),
    )
    .addOption(new Option("--user", "your ~/.claude/settings.json").conflicts("project"))
    .option("--settings <path>", "this settings file instead");
}

/**
 * `charter hooks install|uninstall` (Claude Code settings), and `charter hook <event>` and
 * `charter spool flush` for --help and for running without dist/hook.mjs: bin/charter.mjs
 * normally runs those two from the bundle, before this CLI loads.
 */
export function registerHooks(program: Command): void {
  const hooks = program
    .command("hooks")
    .description("Install or remove Charter's Claude Code hooks");

  scopeOptions(hooks.command("install"))
    .description(
      "Add Charter's hooks to Claude Code settings, keeping everything else (running it twice changes nothing)",
    )
    .option(
      "--command <cmd>",
      "how Claude Code runs charter (default: <path of node> <path of bin/charter-hook.cjs>)",
    )
    .action((options: ScopeOptions & { command?: string }) => {
      const file = targetFile(options);
      const current = readSettings(file);
      const base = options.command?.trim() || defaultBaseCommand();
      const { settings, changed } = installHooks(current.settings, base, file);
      if (changed.length === 0) {
        console.log(`Charter's hooks are already installed in ${file}.`);
      } else {
        writeSettings(file, settings, current);
        console.log(`Installed Charter's hooks (${changed.join(", ")}) in ${file}.`);
      }
      const config = loadHookConfig();
      if (!config.apiKey)
        console.log(
          `The hooks send to ${config.url}; set CHARTER_API_KEY, or write {"url": ..., "api_key": ...} to ~/.config/charter/hook.json.`,
        );
    });

  scopeOptions(hooks.command("uninstall"))
    .description(
      "Remove Charter's hooks from Claude Code settings, leaving everything else as it was",
    )
    .option("--command <cmd>", "also remove hooks run through this custom command")
    .action((options: ScopeOptions & { command?: string }) => {
      const file = targetFile(options);
      const current = readSettings(file);
      const { settings, removed } = uninstallHooks(
        current.settings,
        options.command?.trim() || undefined,
      );
      if (!current.exists || removed === 0) {
        console.log(`No Charter hooks in ${file}.`);
        return;
      }
      writeSettings(file, settings, current);
      console.log(
        `Removed ${removed} Charter hook ${removed === 1 ? "entry" : "entries"} from ${file}.`,
      );
    });

  program
    .command("hook")
    .description(
      "Report a Claude Code hook event (payload JSON on stdin) to the server; spools it when the server is unreachable",
    )
    .addArgument(new Argument("<event>", "the hook event").choices(HOOK_EVENTS))
    .action(async (event: HookEventName) => {
      process.exitCode = await runHookOnStdin(event, { config: loadHookConfig() });
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
