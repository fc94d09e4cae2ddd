/**
 * Entry of dist/hook.mjs: `charter hook <event>` and `charter spool flush` in plain Node,
 * without the TypeScript loader or the app, so that a Claude Code hook answers within
 * its 1 s budget. Node built-ins only; bin/charter.mjs loads this before anything else.
 */
import { performance } from "node:perf_hooks";
import { EXIT } from "../errors";
import { loadHookConfig } from "./config";
import { HOOK_EVENTS, isHookEvent } from "./events";
import { errorMessage, processIo } from "./io";
import { flushSpool, HOOK_BUDGET_MS, runHook, type HookState } from "./run";
import { REJECTED_DIR } from "./spool";
import { readStdin } from "./stdin";

export const HOOK_HELP = `Usage: charter hook <event>

Report a Claude Code hook event to the Charter server. Claude Code's hook payload
(JSON) is read from stdin; for UserPromptSubmit the retrieved principles are
printed as additional context. When the server is down or slow, refuses the API
key or answers from the wrong URL, the event is spooled and replayed by a later
hook; an event the server refuses as invalid is kept in the spool's
${REJECTED_DIR}/ directory with the reason. Other events (PreToolUse, SessionStart, ...)
and payloads for another event are ignored. The hook exits 0 within 1 s, with a
line on stderr for anything to know; only a command line without exactly one
event exits 1. It never exits 2, which Claude Code reads as "block the agent".

Arguments:
  event  ${HOOK_EVENTS.join(" | ")}

Settings (environment first, then the JSON file {"url", "api_key"}):
  CHARTER_URL          server base URL (default http://127.0.0.1:3000)
  CHARTER_API_KEY      API key sent as x-api-key
  CHARTER_HOOK_CONFIG  config file (default ~/.config/charter/hook.json)
  CHARTER_SPOOL_DIR    spool directory (default ~/.local/state/charter/spool)
`;

export const SPOOL_HELP = `Usage: charter spool flush

Send every event the hook spooled, oldest first, with no time budget. Prints
"flushed N, M left, K rejected"; exits 1 when events remain. Rejected events
(refused by the server as invalid, or spool files that hold no event) are moved
to the spool's ${REJECTED_DIR}/ directory, each beside a <name>.reason.txt, and said on
stderr. Settings as for \`charter hook\` (see charter hook --help).
`;

const state: HookState = {};

const wantsHelp = (args: string[]) => args.some((a) => a === "--help" || a === "-h");

function usage(message: string, code: number = EXIT.usage): number {
  processIo.err(`${message} (run with --help for usage)`);
  return code;
}

/** Spools the event the run still holds, if any; returns what became of it, for the run's last line. */
function keepPending(): string {
  const { pending, spool } = state;
  if (!pending || !spool) return "";
  state.pending = undefined;
  try {
    spool.add(pending);
    return `; event spooled (${spool.list().length} waiting)`;
  } catch (error) {
    return `; the event is lost: cannot write to the spool ${spool.dir} (${errorMessage(error)})`;
  }
}

/**
 * Past the budget, whatever is still pending is spooled and the process exits 0: a
 * stuck stdin, disk or socket must not hold the agent.
 */
function startWatchdog(): void {
  const timer = setTimeout(
    () => {
      if (state.pending) processIo.err(`out of time${keepPending()}`);
      else if (state.awaitingPayload)
        processIo.err("no hook payload on stdin within the time budget");
      process.exit(EXIT.ok);
    },
    Math.max(0, HOOK_BUDGET_MS + 50 - performance.now()),
  );
  timer.unref();
}

/**
 * A hook run that sends nothing: one line, then stdin is read and dropped (under the
 * watchdog), since Claude Code writes the payload whatever the event and must not find
 * the pipe closed.
 */
async function skip(line: string, code: number): Promise<number> {
  processIo.err(line);
  await readStdin();
  return code;
}

async function hook(args: string[]): Promise<number> {
  if (wantsHelp(args)) return (processIo.out(HOOK_HELP), EXIT.ok);
  startWatchdog();
  const [event, ...extra] = args;
  // A command-line mistake exits 1, never 2 (usage): Claude Code reads exit 2 from a hook as "block the agent".
  if (!event) return skip(`missing the hook event (run with --help for usage)`, EXIT.invalid);
  if (extra.length)
    return skip(`unexpected argument "${extra[0]}" (run with --help for usage)`, EXIT.invalid);
  if (!isHookEvent(event))
    return skip(
      `ignoring the hook event "${event}": Charter takes ${HOOK_EVENTS.join(", ")}`,
      EXIT.ok,
    );
  state.awaitingPayload = true;
  return runHook(event, await readStdin(), { config: loadHookConfig(), state });
}

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  if (command === "hook") return hook(rest);
  if (command === "spool") {
    if (wantsHelp(rest)) return (processIo.out(SPOOL_HELP), EXIT.ok);
    if (rest[0] !== "flush")
      return usage(
        rest[0] ? `unknown spool command "${rest[0]}"` : "missing the spool command (flush)",
      );
    if (rest.length > 1) return usage(`unexpected argument "${rest[1]}"`);
    return flushSpool(loadHookConfig());
  }
  if (wantsHelp(args)) return (processIo.out(`${HOOK_HELP}\n${SPOOL_HELP}`), EXIT.ok);
  return usage(
    command
      ? `unknown command "${command}" (this entry point runs only hook and spool)`
      : "missing a command (hook or spool)",
  );
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  // A bug must not block the agent or lose its event either: one line, the event spooled, the hook passes.
  processIo.err(`unexpected error: ${errorMessage(error)}${keepPending()}`);
  process.exitCode = process.argv[2] === "hook" ? EXIT.ok : EXIT.invalid;
}
