import type { AgentEventInput, EventsResponse } from "@/lib/schemas/events";
import { EXIT } from "../errors";
import type { HookConfig } from "./config";
import { detectDialect, type Dialect } from "./dialects";
import type { HookEventName } from "./events";
import { errorMessage, processIo, type Io } from "./io";
import { parsePayload, PayloadError } from "./payload";
import { replay, stoppedLine, type ReplayResult } from "./replay";
import { describeFailure, EventSender, settingsProblem, type Delivery, type Failure } from "./send";
import { Spool } from "./spool";

export { processIo, type Io } from "./io";

/**
 * The hook answers within 1 s of having read its payload (stdin closed); this leaves room
 * to exit. It is counted from the payload, not from the process start, so that a slow
 * start on a busy machine does not eat the time the server has to answer.
 */
export const HOOK_BUDGET_MS = 900;
/** A request is abandoned after this long. */
export const REQUEST_TIMEOUT_MS = 700;
/** Replaying the spool stops once this much of the budget is used; the rest waits for a later hook. */
export const REPLAY_BUDGET_MS = 500;
/**
 * How long after the process started the hook waits for stdin to close. Claude Code closes
 * it once the payload is written, so this is reached only by a stuck writer; then what
 * stdin holds is kept all the same. With the budget after it, the hook stays inside the
 * HOOK_TIMEOUT_SECONDS (5 s) that Claude Code is told to give it (settings.ts).
 */
export const STDIN_WAIT_MS = 3_000;
/** Time kept back for writing the event to the spool when the request fails. */
const SPOOL_MARGIN_MS = 50;
/** `charter spool flush` has no budget, only a limit per request. */
export const FLUSH_TIMEOUT_MS = 10_000;
const FLUSH_LOCK_WAIT_MS = 3_000;

/**
 * Shared with main.ts's watchdog and last-resort catch: the event that is neither
 * delivered nor spooled yet, and the answer the agent is still owed on stdout.
 */
export type HookState = { pending?: AgentEventInput; spool?: Spool; answer?: Answer };

/** The agent's answer for one run: printed once, with the context or without it. */
export type Answer = { dialect: Dialect; type: HookEventName | undefined; said?: boolean };

/**
 * Prints the run's answer on stdout, once: the context in the agent's shape when there is
 * one, its neutral answer otherwise (Cursor's prompt hook must say `{"continue": true}`,
 * Gemini CLI reads `{}` as "nothing to add"). Nothing before the dialect is known.
 */
export function answerOnce(state: HookState, io: Io, context?: string): void {
  const answer = state.answer;
  if (!answer || answer.said) return;
  answer.said = true;
  const text = answer.dialect.answer(answer.type, context);
  if (text) io.out(text);
}

/** The hook's spool: the configured directory, and its fallback when that cannot be written. */
export const openSpool = (config: HookConfig) =>
  new Spool(config.spoolDir, config.fallbackSpoolDir);

/** "event spooled (N waiting)", naming the fallback directory when the event went there. */
export function spooledLine(spool: Spool, stuck?: ReadonlySet<string>): string {
  const waiting = `${countWaiting(spool, stuck)} waiting`;
  return spool.fellBack
    ? `event spooled in ${spool.fallbackDir} (${waiting}), since it ${spool.fellBack}`
    : `event spooled (${waiting})`;
}

function countWaiting(spool: Spool, stuck: ReadonlySet<string> = new Set()): number {
  try {
    return spool.list().filter((entry) => !stuck.has(entry.name)).length;
  } catch {
    return 0;
  }
}

/**
 * Replays the spool until `remaining()` runs out. Returns why the new event has to wait
 * behind events still spooled, or undefined when it may be sent now. A spool that cannot
 * be read or replayed is said on stderr and does not hold the new event back.
 */
async function replayFirst(
  spool: Spool,
  sender: EventSender,
  io: Io,
  remaining: () => number,
): Promise<{ reason: string; failure?: Failure } | undefined> {
  let result: ReplayResult;
  try {
    if (spool.list().length === 0) return undefined;
    const lock = await spool.lock(Date.now() + Math.max(0, remaining()));
    if (!lock) return { reason: "another hook is replaying the spool" };
    try {
      result = await replay(spool, sender, io, { remaining, timeoutMs: REQUEST_TIMEOUT_MS, lock });
    } finally {
      lock.release();
    }
  } catch (error) {
    io.err(`cannot replay the spool ${spool.dir} (${errorMessage(error)})`);
    return undefined;
  }
  if (countWaiting(spool, result.stuck) === 0) return undefined;
  return { reason: stoppedLine(result, sender.endpoint), failure: result.stopped };
}

function additionalContext(body: unknown, id: string): string | undefined {
  const results = (body as Partial<EventsResponse> | null)?.results;
  if (!Array.isArray(results)) return undefined;
  const result = results.find((r) => r?.id === id) ?? results[0];
  const text = result?.additional_context;
  return typeof text === "string" && text.trim() ? text : undefined;
}

/**
 * The event a payload makes in `dialect` (by default the one the payload shows), its
 * warnings said on stderr; a payload that is not a hook event for `type` is said on stderr
 * too, and gives no event (nothing to send or keep). The dialect, once known, is the answer's.
 */
export function eventOrSay(
  type: HookEventName,
  payload: () => Record<string, unknown>,
  io: Io,
  options: { dialect?: Dialect; state?: HookState } = {},
): AgentEventInput | undefined {
  const { state = {} } = options;
  try {
    const data = payload();
    const dialect = options.dialect ?? detectDialect(data);
    state.answer = { dialect, type };
    const built = dialect.build(type, data);
    for (const warning of built.warnings) io.err(warning);
    return built.event;
  } catch (error) {
    if (!(error instanceof PayloadError)) throw error;
    io.err(error.message);
    return undefined;
  }
}

export type HookOptions = {
  config: HookConfig;
  /** The agent's protocol; by default the one the payload shows (detectDialect), Claude Code's when it shows none. */
  dialect?: Dialect;
  io?: Io;
  /** performance.now() at which the payload was read, and the budget started; default: the call. */
  startedAt?: number;
  state?: HookState;
};

/**
 * `charter hook <event>`: turns the payload into an event, replays the spool within the
 * budget, sends the event, and prints what the agent expects. Exits 0 whatever happens
 * (the agent is never blocked), with at most a line on stderr per thing to know. The
 * event is delivered, or spooled (server down or slow, key refused, wrong URL), or, when
 * the server refuses it as invalid, kept in rejected/ with the reason: never dropped.
 * A payload that is not a hook event for `type` is reported and sends nothing.
 */
export async function runHook(
  type: HookEventName,
  rawPayload: string,
  options: HookOptions,
): Promise<number> {
  const { dialect, io = processIo, startedAt = performance.now(), state = {} } = options;
  if (dialect) state.answer = { dialect, type };
  try {
    return await deliver(type, rawPayload, { ...options, io, startedAt, state });
  } finally {
    answerOnce(state, io);
  }
}

async function deliver(
  type: HookEventName,
  rawPayload: string,
  options: HookOptions & Required<Pick<HookOptions, "io" | "startedAt" | "state">>,
): Promise<number> {
  const { config, dialect, io, startedAt, state } = options;
  const elapsed = () => performance.now() - startedAt;
  if (config.warning) io.err(config.warning);

  const event = eventOrSay(type, () => parsePayload(rawPayload), io, { dialect, state });
  if (!event) return EXIT.ok;

  const spool = openSpool(config);
  state.spool = spool;
  state.pending = event;
  const sender = new EventSender(config);
  const spoolIt = (reason: string, failure?: Failure) => {
    state.pending = undefined;
    try {
      spool.add(event);
    } catch (error) {
      io.err(`${reason}; the event is lost: ${errorMessage(error)}`);
      return EXIT.ok;
    }
    const problem = failure && settingsProblem(failure);
    if (problem === undefined || spool.fellBack) io.err(`${reason}; ${spooledLine(spool)}`);
    else if (spool.noteProblem(problem))
      io.err(`${reason}; ${spooledLine(spool)}; said once until an event is delivered`);
    return EXIT.ok;
  };

  try {
    // The new event goes after the spooled ones: while any wait, it waits too.
    const behind = await replayFirst(spool, sender, io, () => REPLAY_BUDGET_MS - elapsed());
    if (behind) return spoolIt(behind.reason, behind.failure);

    const timeout = Math.min(REQUEST_TIMEOUT_MS, HOOK_BUDGET_MS - SPOOL_MARGIN_MS - elapsed());
    const delivery: Delivery =
      timeout > 0
        ? await sender.post(event, timeout)
        : { kind: "unavailable", reason: "no time left to send" };
    switch (delivery.kind) {
      case "delivered": {
        state.pending = undefined;
        spool.clearProblem();
        answerOnce(state, io, additionalContext(delivery.body, event.id));
        return EXIT.ok;
      }
      case "rejected": {
        state.pending = undefined;
        try {
          io.err(
            `the server rejected the event (${delivery.reason}); kept it in ${spool.keepRejected(event, delivery.reason, delivery.body)}`,
          );
        } catch (error) {
          io.err(
            `the server rejected the event (${delivery.reason}); the event is lost: ${errorMessage(error)}`,
          );
        }
        return EXIT.ok;
      }
      default:
        return spoolIt(describeFailure(delivery, sender.endpoint), delivery);
    }
  } finally {
    sender.close();
  }
}

/**
 * `charter spool flush`: replays every spooled event with no time budget. Prints
 * `flushed N, M left, K rejected`; exits 1 when events remain because the server could
 * not take them. Rejected ones are out of the queue, each said on stderr, in rejected/.
 */
export async function flushSpool(config: HookConfig, io: Io = processIo): Promise<number> {
  if (config.warning) io.err(config.warning);
  const spool = openSpool(config);
  let result: ReplayResult = { sent: 0, rejected: 0, stuck: new Set() };
  const sender = new EventSender(config);
  try {
    if (spool.list().length > 0) {
      const lock = await spool.lock(Date.now() + FLUSH_LOCK_WAIT_MS);
      if (!lock) {
        io.err(
          `another process is replaying the spool in ${config.spoolDir}; try again in a moment`,
        );
        return EXIT.invalid;
      }
      try {
        result = await replay(spool, sender, io, {
          remaining: () => Infinity,
          timeoutMs: FLUSH_TIMEOUT_MS,
          lock,
        });
      } finally {
        lock.release();
      }
    }
    const left = spool.list().length;
    io.out(`flushed ${result.sent}, ${left} left, ${result.rejected} rejected\n`);
    if (result.stopped) io.err(describeFailure(result.stopped, sender.endpoint));
    return left > 0 ? EXIT.invalid : EXIT.ok;
  } catch (error) {
    io.err(`cannot flush the spool ${config.spoolDir} (${errorMessage(error)})`);
    return EXIT.invalid;
  } finally {
    sender.close();
  }
}
