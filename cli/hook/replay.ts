import type { Io } from "./io";
import { describeFailure, type EventSender, type Failure } from "./send";
import type { Spool, Spooled } from "./spool";
import type { SpoolLock } from "./spool-lock";

/** Spooled events go in batches (applied all or none by the server) of at most this many events and bytes. */
export const BATCH_EVENTS = 100;
const BATCH_BYTES = 512 * 1024;
/** A request given less time than this would fail for lack of time, not for the server. */
export const MIN_REQUEST_MS = 50;

export type ReplayResult = {
  sent: number;
  /** Entries moved to rejected/ by this replay: refused by the server, or not events. */
  rejected: number;
  /** Bad entries that could not even be moved aside; they no longer hold up the queue. */
  stuck: Set<string>;
  /** Why the replay stopped with events still waiting, when it was not for time. */
  stopped?: Failure;
};

export type ReplayOptions = { remaining: () => number; timeoutMs: number; lock: SpoolLock };

/**
 * Sends spooled events oldest first, in batches, deleting each file only once the server
 * answered 2xx for it. Stops at the first failure that is not the events' own fault
 * (server down, key refused, wrong URL: the events wait), or when `remaining()` runs
 * out. What the server refuses as invalid, and entries that are not events, go to
 * rejected/ with one stderr line each and never hold up the rest: a refused batch is
 * halved until the event at fault is alone.
 */
export async function replay(
  spool: Spool,
  sender: EventSender,
  io: Io,
  options: ReplayOptions,
): Promise<ReplayResult> {
  const result: ReplayResult = { sent: 0, rejected: 0, stuck: new Set() };
  const setAside = (
    entry: Spooled,
    reason: string,
    answer?: unknown,
    line = `spool entry ${entry.name} ${reason}`,
  ) => {
    try {
      const target = spool.reject(entry, reason, answer);
      result.rejected++;
      io.err(`${line}; moved it to ${target}`);
    } catch (error) {
      result.stuck.add(entry.name);
      io.err(
        `${line}; cannot move it aside (${(error as Error).message}), so it is left in place and skipped`,
      );
    }
  };

  let batchSize = BATCH_EVENTS;
  for (;;) {
    const waiting = spool.list().filter((entry) => !result.stuck.has(entry.name));
    if (waiting.length === 0 || options.remaining() < MIN_REQUEST_MS) return result;
    const batch: { entry: Spooled; event: object }[] = [];
    let bytes = 0;
    for (const entry of waiting) {
      if (batch.length >= batchSize || (batch.length > 0 && bytes + entry.bytes > BATCH_BYTES))
        break;
      // Thousands of bad entries take time to move too.
      if (options.remaining() < MIN_REQUEST_MS) break;
      const read = spool.read(entry);
      if (read.kind === "gone") continue;
      if (read.kind === "bad") {
        setAside(entry, read.problem);
        continue;
      }
      if (read.salvaged)
        io.err(
          `spool entry ${entry.name} had garbage after its event; the event stays queued, the file as it was is in ${read.salvaged}`,
        );
      batch.push({ entry, event: read.event });
      bytes += entry.bytes;
    }
    if (batch.length === 0) continue;

    options.lock.touch();
    const body = batch.length === 1 ? batch[0]!.event : { events: batch.map((b) => b.event) };
    const delivery = await sender.post(body, Math.min(options.timeoutMs, options.remaining()));
    if (delivery.kind === "delivered") {
      for (const { entry } of batch) spool.remove(entry);
      spool.clearProblem();
      result.sent += batch.length;
    } else if (delivery.kind === "rejected") {
      if (batch.length > 1) {
        batchSize = Math.ceil(batch.length / 2);
        continue;
      }
      batchSize = BATCH_EVENTS;
      setAside(
        batch[0]!.entry,
        delivery.reason,
        delivery.body,
        `the server rejected a spooled event (${delivery.reason})`,
      );
    } else {
      result.stopped = delivery;
      return result;
    }
  }
}

/** One line for a replay that stopped with events waiting. */
export function stoppedLine(result: ReplayResult, endpoint: string): string {
  return result.stopped
    ? describeFailure(result.stopped, endpoint)
    : `replayed ${result.sent} spooled events, out of time for the rest`;
}
