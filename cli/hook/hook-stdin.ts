import { EXIT } from "../errors";
import type { HookEventName } from "./events";
import { errorMessage, processIo } from "./io";
import { parsePayload, PayloadError } from "./payload";
import {
  answerOnce,
  eventOrSay,
  openSpool,
  runHook,
  spooledLine,
  STDIN_WAIT_MS,
  type HookOptions,
} from "./run";
import { readStdin } from "./stdin";

// `charter hook <event>` as the agents run it: the payload comes on stdin.

export type StdinHookOptions = Omit<HookOptions, "startedAt"> & {
  /** Called once the payload is read, with performance.now(): the budget starts then. */
  onPayload?: (at: number) => void;
};

/**
 * `charter hook <event>` with its payload on stdin. Waiting for stdin is bounded by
 * STDIN_WAIT_MS after the process started, not by the budget: however slowly the
 * process started, the payload already written is read and its event kept.
 */
export async function runHookOnStdin(
  type: HookEventName,
  options: StdinHookOptions,
): Promise<number> {
  const input = await readStdin(STDIN_WAIT_MS - performance.now());
  const at = performance.now();
  options.onPayload?.(at);
  if (input.complete) return runHook(type, input.text, { ...options, startedAt: at });
  return keepUnfinished(type, input.text, options);
}

/**
 * Stdin was still open after STDIN_WAIT_MS: a payload it held is spooled (a later hook
 * sends it), and text that is no payload is kept in rejected/ with the reason, so that
 * nothing a stuck writer gave is dropped. Nothing is sent: the agent has waited enough.
 */
function keepUnfinished(type: HookEventName, text: string, options: StdinHookOptions): number {
  const { dialect, io = processIo, state = {} } = options;
  if (dialect) state.answer = { dialect, type };
  try {
    return keep(type, text, { ...options, io, state });
  } finally {
    answerOnce(state, io);
  }
}

function keep(
  type: HookEventName,
  text: string,
  options: StdinHookOptions & Required<Pick<StdinHookOptions, "io" | "state">>,
): number {
  const { config, dialect, io, state } = options;
  if (config.warning) io.err(config.warning);
  const waited = `stdin was still open after ${STDIN_WAIT_MS} ms`;
  if (!text.trim()) {
    io.err(`${waited} and held no hook payload; nothing to keep`);
    return EXIT.ok;
  }
  const spool = openSpool(config);
  let payload: Record<string, unknown>;
  try {
    payload = parsePayload(text);
  } catch (error) {
    if (!(error instanceof PayloadError)) throw error;
    const reason = `${waited} and what it held is not a hook payload: ${error.message}`;
    try {
      io.err(`${reason}; kept it in ${spool.keepText(text, reason)}`);
    } catch (failure) {
      io.err(`${reason}; it is lost: ${errorMessage(failure)}`);
    }
    return EXIT.ok;
  }
  const event = eventOrSay(type, () => payload, io, { dialect, state });
  if (!event) return EXIT.ok;
  state.spool = spool;
  state.pending = undefined;
  try {
    spool.add(event);
  } catch (error) {
    io.err(`${waited}; the event is lost: ${errorMessage(error)}`);
    return EXIT.ok;
  }
  io.err(`${waited}; ${spooledLine(spool)}`);
  return EXIT.ok;
}
