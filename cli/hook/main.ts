/**
 * Entry of dist/hook.cjs: `charter hook <event>` and `charter spool flush` in plain Node,
 * without the TypeScript loader or the app, so that an agent's hook starts in a small
 * part of its 1 s budget. Node built-ins only (CommonJS: no ES module loader to start);
 * bin/charter.mjs loads this before anything else.
 */
import path from "node:path";
import { EXIT } from "../errors";
import { loadHookConfig } from "./config";
import { DIALECT_NAMES, DIALECTS, isDialectName, resolveEvent, type Dialect } from "./dialects";
import { HOOK_EVENTS } from "./events";
import { runHookOnStdin } from "./hook-stdin";
import { errorMessage, processIo } from "./io";
import {
  answerOnce,
  flushSpool,
  HOOK_BUDGET_MS,
  spooledLine,
  STDIN_WAIT_MS,
  type HookState,
} from "./run";
import { REJECTED_DIR } from "./spool";
import { fallbackSpoolDir } from "./spool-dirs";
import { readStdin } from "./stdin";

const agentsTable = Object.values(DIALECTS)
  .map(
    (d) =>
      `  ${d.name.padEnd(8)}${d.label.padEnd(13)}${Object.entries(d.events)
        .filter(([, type]) => type !== null)
        .map(([name]) => name)
        .join(", ")}`,
  )
  .join("\n");

export const HOOK_HELP = `Usage: charter hook [--agent ${DIALECT_NAMES.join("|")}] <event>

Report a coding agent's hook event to the Charter server. The agent's hook payload
(JSON) is read from stdin. The retrieved principles go back on stdout in the agent's
own shape: with each prompt for Claude Code, Codex and Gemini CLI, and the
constitution's core at session start for those that register it (Cursor takes
context only there: its prompts are recorded as given none). When the server is down
or slow, refuses the API key or answers from the wrong URL, the event is spooled and
replayed by a later hook; an event the server refuses as invalid is kept in the
spool's ${REJECTED_DIR}/ directory with the reason. Other events (PreToolUse,
Cursor's stop, ...) and payloads for another event are ignored.

Time: the hook exits 0 within 1 s of reading its payload (stdin closed), with a
line on stderr for anything to know: a request gets at most 700 ms, replaying the
spool first at most 500 ms. That second counts from the payload, not from the
start of the process, so a slow start on a busy machine does not take the
server's time. Stdin is waited for until ${STDIN_WAIT_MS / 1000} s after the start; if it is still
open then, what it holds is kept all the same (a payload spooled, anything else
in ${REJECTED_DIR}/). Only a broken command line exits 1. The hook never exits 2,
which Claude Code, Codex and Cursor read as "block the agent" (Gemini CLI reads
every code but 0 and 1 so).

Arguments:
  event  the agent's name for it, or Charter's: ${HOOK_EVENTS.join(" | ")}

Options:
  --agent <name>  the agent that runs the hook. Without it, the payload tells where it
                  is certain (Cursor's cursor_version or camelCase event names, Gemini
                  CLI's own event names, Codex's turn_id), and Claude Code otherwise.

Agents and the events Charter takes from each:
${agentsTable}

Settings (environment first, then the JSON file {"url", "api_key"}):
  CHARTER_URL          server base URL (default http://127.0.0.1:3000)
  CHARTER_API_KEY      API key sent as x-api-key
  CHARTER_HOOK_CONFIG  config file (default ~/.config/charter/hook.json)
  CHARTER_SPOOL_DIR    spool directory (default ~/.local/state/charter/spool); when it
                       cannot be written, events go to ${path.join("$TMPDIR", path.basename(fallbackSpoolDir()))}
                       instead (said on stderr), and both are replayed, oldest first
`;

export const SPOOL_HELP = `Usage: charter spool flush

Send every event the hook spooled, oldest first, with no time budget, from the
spool directory and its fallback in $TMPDIR. Prints "flushed N, M left, K rejected";
exits 1 when events remain. Rejected events (refused by the server as invalid, or
spool files that hold no event) are moved to the spool's ${REJECTED_DIR}/ directory, each
beside a <name>.reason.txt, and said on stderr. Settings as for \`charter hook\`
(see charter hook --help).
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
    return `; ${spooledLine(spool)}`;
  } catch (error) {
    return `; the event is lost: ${errorMessage(error)}`;
  }
}

/**
 * Past the budget (counted from the payload), whatever is still pending is spooled and
 * the process exits 0: a stuck disk or socket must not hold the agent. Waiting for stdin
 * has its own bound (STDIN_WAIT_MS), so the event is in hand before this can fire.
 */
function startWatchdog(payloadAt: number): void {
  const timer = setTimeout(
    () => {
      if (state.pending) processIo.err(`out of time${keepPending()}`);
      answerOnce(state, processIo);
      process.exit(EXIT.ok);
    },
    Math.max(0, HOOK_BUDGET_MS + 50 - (performance.now() - payloadAt)),
  );
  timer.unref();
}

/**
 * A hook run that sends nothing: one line, then stdin is read and dropped, since the agent
 * writes the payload whatever the event and must not find the pipe closed. An event the
 * agent's dialect knows gets its neutral answer (Gemini CLI would show stderr otherwise).
 */
async function skip(line: string, code: number, dialect?: Dialect): Promise<number> {
  processIo.err(line);
  await readStdin(STDIN_WAIT_MS - performance.now());
  if (dialect) state.answer = { dialect, type: undefined };
  answerOnce(state, processIo);
  return code;
}

/** `--agent <name>` or `--agent=<name>` anywhere, and the one event. */
function parseHookArgs(args: string[]): { dialect?: Dialect; event: string } | { mistake: string } {
  const rest: string[] = [];
  let agent: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--agent" || arg.startsWith("--agent=")) {
      if (agent !== undefined) return { mistake: "--agent given twice" };
      agent = arg === "--agent" ? args[++i] : arg.slice("--agent=".length);
      if (!agent) return { mistake: `--agent needs one of ${DIALECT_NAMES.join(", ")}` };
    } else rest.push(arg);
  }
  if (agent !== undefined && !isDialectName(agent))
    return { mistake: `unknown agent "${agent}" for --agent (${DIALECT_NAMES.join(", ")})` };
  const [event, ...extra] = rest;
  if (!event) return { mistake: "missing the hook event" };
  if (extra.length) return { mistake: `unexpected argument "${extra[0]}"` };
  return { event, ...(agent ? { dialect: DIALECTS[agent] } : {}) };
}

async function hook(args: string[]): Promise<number> {
  if (wantsHelp(args)) return (processIo.out(HOOK_HELP), EXIT.ok);
  const parsed = parseHookArgs(args);
  // A command-line mistake exits 1, never 2 (usage): every agent reads exit 2 from a hook as "block".
  if ("mistake" in parsed)
    return skip(`${parsed.mistake} (run with --help for usage)`, EXIT.invalid);
  const call = resolveEvent(parsed.event, parsed.dialect);
  if (call.kind === "ignore") return skip(call.line, EXIT.ok, call.dialect);
  return runHookOnStdin(call.type, {
    config: loadHookConfig(),
    dialect: call.dialect,
    state,
    onPayload: startWatchdog,
  });
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

// No top-level await: the bundle is CommonJS.
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // A bug must not block the agent or lose its event either: one line, the event spooled, the hook passes.
    processIo.err(`unexpected error: ${errorMessage(error)}${keepPending()}`);
    answerOnce(state, processIo);
    process.exitCode = process.argv[2] === "hook" ? EXIT.ok : EXIT.invalid;
  },
);
