/**
 * Entry of dist/hook.mjs: `charter hook <event>` and `charter spool flush` in plain Node,
 * without the TypeScript loader or the app, so that a Claude Code hook answers within
 * its 1 s budget. Node built-ins only; bin/charter.mjs loads this before anything else.
 */
import { performance } from "node:perf_hooks";
import { EXIT } from "../errors";
import { loadHookConfig } from "./config";
import { HOOK_EVENTS, isHookEvent } from "./events";
import { flushSpool, HOOK_BUDGET_MS, processIo, runHook, type HookState } from "./run";
import { readStdin } from "./stdin";

export const HOOK_HELP = `Usage: charter hook <event>

Report a Claude Code hook event to the Charter server. Claude Code's hook payload
(JSON) is read from stdin; for UserPromptSubmit the retrieved principles are
printed as additional context. When the server cannot be reached the event is
spooled and replayed by a later hook; the hook always exits 0 within 1 s.

Arguments:
  event  ${HOOK_EVENTS.join(" | ")}

Settings (environment first, then the JSON file {"url", "api_key"}):
  CHARTER_URL          server base URL (default http://127.0.0.1:3000)
  CHARTER_API_KEY      API key sent as x-api-key
  CHARTER_HOOK_CONFIG  config file (default ~/.config/charter/hook.json)
  CHARTER_SPOOL_DIR    spool directory (default ~/.local/state/charter/spool)
`;

export const SPOOL_HELP = `Usage: charter spool flush

Send every event the hook spooled while the server was unreachable, oldest
first, with no time budget. Prints "flushed N, M left"; exits 1 when events
remain. Settings as for \`charter hook\` (see charter hook --help).
`;

const wantsHelp = (args: string[]) => args.some((a) => a === "--help" || a === "-h");

function usage(message: string, code: number = EXIT.usage): number {
  processIo.err(`${message} (run with --help for usage)`);
  return code;
}

/** A mistake in a hook's command line exits 1, not 2: Claude Code reads exit 2 from a hook as "block the agent". */
const hookUsage = (message: string) => usage(message, EXIT.invalid);

/**
 * Past the budget, whatever is still pending is spooled and the process exits 0: a
 * stuck stdin, disk or socket must not hold the agent.
 */
function startWatchdog(state: HookState): void {
  const timer = setTimeout(() => {
    if (state.pending && state.spool) {
      state.spool.add(state.pending);
      processIo.err(`out of time; event spooled (${state.spool.list().length} waiting)`);
    } else if (!state.spool) {
      processIo.err("no hook payload on stdin within the time budget");
    }
    process.exit(EXIT.ok);
  }, Math.max(0, HOOK_BUDGET_MS + 50 - performance.now()));
  timer.unref();
}

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  if (command === "hook") {
    if (wantsHelp(rest)) return (processIo.out(HOOK_HELP), EXIT.ok);
    const [event, ...extra] = rest;
    if (!event) return hookUsage("missing the hook event");
    if (!isHookEvent(event)) return hookUsage(`unknown hook event "${event}" (expected ${HOOK_EVENTS.join(", ")})`);
    if (extra.length) return hookUsage(`unexpected argument "${extra[0]}"`);
    const state: HookState = {};
    startWatchdog(state);
    return runHook(event, await readStdin(), { config: loadHookConfig(), state });
  }
  if (command === "spool") {
    if (wantsHelp(rest)) return (processIo.out(SPOOL_HELP), EXIT.ok);
    if (rest[0] !== "flush") return usage(rest[0] ? `unknown spool command "${rest[0]}"` : "missing the spool command (flush)");
    if (rest.length > 1) return usage(`unexpected argument "${rest[1]}"`);
    return flushSpool(loadHookConfig());
  }
  if (wantsHelp(args)) return (processIo.out(`${HOOK_HELP}\n${SPOOL_HELP}`), EXIT.ok);
  return usage(command ? `unknown command "${command}" (this entry point runs only hook and spool)` : "missing a command (hook or spool)");
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  // A bug must not block the agent either: say it on one line and let the hook pass.
  processIo.err(`unexpected error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = process.argv[2] === "hook" ? EXIT.ok : EXIT.invalid;
}
