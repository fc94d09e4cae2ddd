import { performance } from "node:perf_hooks";
import type { AgentEventInput, EventsResponse } from "@/lib/schemas/events";
import { EXIT } from "../errors";
import type { HookConfig } from "./config";
import type { HookEventName } from "./events";
import { buildEvent, parsePayload, PayloadError } from "./payload";
import { EventSender, type Delivery } from "./send";
import { Spool, type SpoolLock } from "./spool";

/** The whole hook answers within 1 s of its start; this leaves room to exit. */
export const HOOK_BUDGET_MS = 900;
/** A request is abandoned after this long. */
export const REQUEST_TIMEOUT_MS = 700;
/** Replaying the spool stops once this much of the budget is used; the rest waits for a later hook. */
export const REPLAY_BUDGET_MS = 500;
/** Time kept back for writing the event to the spool when the request fails. */
const SPOOL_MARGIN_MS = 50;
/** A request given less time than this would fail for lack of time, not for the server. */
const MIN_REQUEST_MS = 50;
/** `charter spool flush` has no budget, only a limit per request. */
export const FLUSH_TIMEOUT_MS = 10_000;
const FLUSH_LOCK_WAIT_MS = 3_000;
/** Spooled events go in batches (applied all or none by the server) of at most this many events and bytes. */
const BATCH_EVENTS = 100;
const BATCH_BYTES = 512 * 1024;

export type Io = { out(text: string): void; err(line: string): void };

export const processIo: Io = {
  out: (text) => process.stdout.write(text),
  // One line each, whatever the message holds (JSON.parse errors quote the input).
  err: (line) => process.stderr.write(`charter: ${line.replace(/\s*\n\s*/g, " ").trim()}\n`),
};

/** Shared with main.ts's watchdog: the event that is neither delivered nor spooled yet. */
export type HookState = { pending?: AgentEventInput; spool?: Spool };

type ReplayResult = { sent: number; rejected: number; stopped?: Exclude<Delivery, { kind: "delivered" | "rejected" }> };

/**
 * Sends spooled events oldest first, in batches, deleting each file only once the server
 * answered 2xx for it. Stops at the first failure that is not the events' own fault, or
 * when `until()` says the time is up. An event the server refuses as invalid is moved
 * aside (it would block the queue forever) and reported.
 */
async function replay(spool: Spool, sender: EventSender, io: Io, options: { remaining: () => number; timeoutMs: number; lock: SpoolLock }): Promise<ReplayResult> {
  const result: ReplayResult = { sent: 0, rejected: 0 };
  let maxEvents = BATCH_EVENTS;
  for (;;) {
    const waiting = spool.list();
    if (waiting.length === 0 || options.remaining() < MIN_REQUEST_MS) return result;
    const batch: { entry: (typeof waiting)[number]; event: unknown }[] = [];
    let bytes = 0;
    for (const entry of waiting) {
      if (batch.length >= maxEvents || (batch.length > 0 && bytes + entry.bytes > BATCH_BYTES)) break;
      const event = spool.read(entry);
      if (event === undefined) continue;
      batch.push({ entry, event });
      bytes += entry.bytes;
    }
    if (batch.length === 0) continue;
    options.lock.touch();
    const body = batch.length === 1 ? batch[0]!.event : { events: batch.map((b) => b.event) };
    const delivery = await sender.post(body, Math.min(options.timeoutMs, options.remaining()));
    if (delivery.kind === "delivered") {
      for (const { entry } of batch) spool.remove(entry);
      result.sent += batch.length;
    } else if (delivery.kind === "rejected") {
      if (batch.length > 1) {
        // The batch is refused as a whole: find the event at fault by sending one at a time.
        maxEvents = 1;
        continue;
      }
      const kept = spool.reject(batch[0]!.entry);
      result.rejected++;
      io.err(`the server refused a spooled event (${delivery.reason}); moved it to ${kept}`);
    } else {
      result.stopped = delivery;
      return result;
    }
  }
}

function why(delivery: NonNullable<ReplayResult["stopped"]>, endpoint: string): string {
  switch (delivery.kind) {
    case "unavailable":
      return `server unreachable (${delivery.reason})`;
    case "refused":
      return `the server refused the API key (${delivery.reason}); set CHARTER_API_KEY or api_key in the hook config`;
    case "misdirected":
      return `unexpected answer from ${endpoint} (${delivery.reason}); check CHARTER_URL`;
  }
}

function additionalContext(body: unknown, id: string): string | undefined {
  const results = (body as Partial<EventsResponse> | null)?.results;
  if (!Array.isArray(results)) return undefined;
  const result = results.find((r) => r?.id === id) ?? results[0];
  const text = result?.additional_context;
  return typeof text === "string" && text.trim() ? text : undefined;
}

export type HookOptions = {
  config: HookConfig;
  io?: Io;
  /** performance.now() at which the budget started: 0 (process start) for the fast path. */
  startedAt?: number;
  state?: HookState;
};

/**
 * `charter hook <event>`: turns the payload into an event, replays the spool within the
 * budget, sends the event, and prints what Claude Code expects. Any failure to deliver
 * ends in the spool or on one stderr line, with exit code 0: the agent is never blocked.
 * Only an unusable payload exits non-zero (1).
 */
export async function runHook(type: HookEventName, rawPayload: string, options: HookOptions): Promise<number> {
  const { config, io = processIo, startedAt = 0, state = {} } = options;
  const elapsed = () => performance.now() - startedAt;
  if (config.warning) io.err(config.warning);

  let event: AgentEventInput;
  try {
    const built = buildEvent(type, parsePayload(rawPayload));
    event = built.event;
    for (const warning of built.warnings) io.err(warning);
  } catch (error) {
    if (error instanceof PayloadError) {
      io.err(error.message);
      return EXIT.invalid;
    }
    throw error;
  }

  const spool = new Spool(config.spoolDir);
  state.spool = spool;
  state.pending = event;
  const sender = new EventSender(config);
  const spoolIt = (reason: string) => {
    state.pending = undefined;
    try {
      spool.add(event);
      io.err(`${reason}; event spooled (${spool.list().length} waiting)`);
    } catch (error) {
      io.err(`${reason}; the event is lost: cannot write to the spool ${spool.dir} (${(error as Error).message})`);
    }
    return EXIT.ok;
  };

  // An unreadable spool must not stop the event from being sent.
  let waiting = 0;
  try {
    waiting = spool.list().length;
  } catch (error) {
    io.err(`cannot read the spool ${spool.dir} (${(error as Error).message})`);
  }

  try {
    if (waiting > 0) {
      const lock = await spool.lock(Date.now() + Math.max(0, REPLAY_BUDGET_MS - elapsed()));
      let replayed: ReplayResult | undefined;
      if (lock) {
        try {
          replayed = await replay(spool, sender, io, { remaining: () => REPLAY_BUDGET_MS - elapsed(), timeoutMs: REQUEST_TIMEOUT_MS, lock });
        } finally {
          lock.release();
        }
      }
      const stopped = replayed?.stopped;
      if (stopped && stopped.kind !== "unavailable") {
        state.pending = undefined;
        io.err(`${why(stopped, sender.endpoint)}; event not sent (${spool.list().length} spooled events wait)`);
        return EXIT.ok;
      }
      // The new event goes after the spooled ones: while any wait, it waits too.
      if (spool.list().length > 0) {
        return spoolIt(stopped ? why(stopped, sender.endpoint) : replayed ? `replayed ${replayed.sent} spooled events, out of time for the rest` : "another hook is replaying the spool");
      }
    }

    const timeout = Math.min(REQUEST_TIMEOUT_MS, HOOK_BUDGET_MS - SPOOL_MARGIN_MS - elapsed());
    const delivery: Delivery = timeout > 0 ? await sender.post(event, timeout) : { kind: "unavailable", reason: "no time left to send" };
    switch (delivery.kind) {
      case "delivered": {
        state.pending = undefined;
        const context = type === "UserPromptSubmit" ? additionalContext(delivery.body, event.id) : undefined;
        if (context) io.out(`${JSON.stringify({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: context } })}\n`);
        return EXIT.ok;
      }
      case "unavailable":
        return spoolIt(why(delivery, sender.endpoint));
      case "rejected":
        state.pending = undefined;
        io.err(`the server rejected the event (${delivery.reason}); event dropped`);
        return EXIT.ok;
      default:
        state.pending = undefined;
        io.err(`${why(delivery, sender.endpoint)}; event not sent`);
        return EXIT.ok;
    }
  } finally {
    sender.close();
  }
}

/**
 * `charter spool flush`: replays every spooled event with no time budget. Prints
 * `flushed N, M left`; exits 1 when events remain because the server could not take them.
 */
export async function flushSpool(config: HookConfig, io: Io = processIo): Promise<number> {
  if (config.warning) io.err(config.warning);
  const spool = new Spool(config.spoolDir);
  if (spool.list().length === 0) {
    io.out("flushed 0, 0 left\n");
    return EXIT.ok;
  }
  const lock = await spool.lock(Date.now() + FLUSH_LOCK_WAIT_MS);
  if (!lock) {
    io.err(`another process is replaying the spool in ${config.spoolDir}; try again in a moment`);
    return EXIT.invalid;
  }
  const sender = new EventSender(config);
  try {
    const result = await replay(spool, sender, io, { remaining: () => Infinity, timeoutMs: FLUSH_TIMEOUT_MS, lock });
    const left = spool.list().length;
    io.out(`flushed ${result.sent}, ${left} left${result.rejected ? ` (${result.rejected} refused as invalid, kept in ${config.spoolDir}/rejected)` : ""}\n`);
    if (result.stopped) io.err(why(result.stopped, sender.endpoint));
    return left > 0 ? EXIT.invalid : EXIT.ok;
  } finally {
    sender.close();
    lock.release();
  }
}
