import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import type { AgentEvent, EventsResponse } from "@/lib/schemas/events";
import { onDrain } from "@/lib/shutdown";
import { applyGroup, prepareEvents, type PreparedEvents } from "./ingest";

/*
 * Group commit. Concurrent requests' events are applied together, in one transaction
 * per group, so a thousand agents cost a few transactions per second instead of one
 * each. Each request is answered with its own results only after its group committed
 * (an event is acknowledged only once it is stored). A lone request is not delayed:
 * with no group in flight it starts at once; while one is in flight, requests gather
 * for at most GATHER_MS and start beside it, or join the next group when MAX_IN_FLIGHT
 * are running. Retrieval is done per request before it joins (prepareEvents), so it
 * overlaps the wait.
 */

/**
 * Requests with more events than this (a spool flush, an import) queue apart from the
 * others, in their own groups and transactions: a large batch never holds single events back.
 */
export const LARGE_ABOVE_EVENTS = 100;
/** Events in one group at most (a request is never split). */
export const MAX_GROUP_EVENTS = 1_000;
/** Groups of one lane (a source, small or large requests) in their transaction at once. */
export const MAX_IN_FLIGHT = 2;
/** How long a request waits for others to join while a group is in flight. */
export const GATHER_MS = 2;
/** Requests of a failed group applied alone at once. */
const RETRY_CONCURRENCY = 4;

/** Where a request's time went, in milliseconds: its prompts' retrieval, waiting for its group, and the group's transaction. */
export type IngestTiming = { retrieve: number; queue: number; commit: number };

type Waiting = {
  prepared: PreparedEvents;
  resolve: (response: EventsResponse) => void;
  reject: (error: unknown) => void;
  queuedAt: number;
  timing?: IngestTiming;
};
type Lane = {
  queue: Waiting[];
  inFlight: Set<Promise<void>>;
  timer: NodeJS.Timeout | null;
  immediate: boolean;
};
type Stats = { groups: number; requests: number; retried: number };
type Queues = { lanes: Map<string, Lane>; draining: boolean; stats: Stats };

// One set of queues per process: Next.js evaluates modules once per bundle layer.
const holder = globalThis as unknown as { __charterIngestQueues?: Queues };
function queues(): Queues {
  holder.__charterIngestQueues ??= {
    lanes: new Map(),
    draining: false,
    stats: { groups: 0, requests: 0, retried: 0 },
  };
  return holder.__charterIngestQueues;
}

/** Requests of different sources never share a group: a session's source is its first request's. */
function lane(source: string, large: boolean): Lane {
  const lanes = queues().lanes;
  const key = `${source}${large ? " (large)" : ""}`;
  let found = lanes.get(key);
  if (!found) {
    found = { queue: [], inFlight: new Set(), timer: null, immediate: false };
    lanes.set(key, found);
  }
  return found;
}

const queuedEvents = (l: Lane) => l.queue.reduce((n, w) => n + w.prepared.events.length, 0);

function schedule(l: Lane): void {
  if (l.queue.length === 0 || l.inFlight.size >= MAX_IN_FLIGHT) return;
  if (l.inFlight.size === 0 || queues().draining || queuedEvents(l) >= MAX_GROUP_EVENTS) {
    // Requests that arrived in the same turn of the event loop go together.
    if (!l.immediate) {
      l.immediate = true;
      setImmediate(() => {
        l.immediate = false;
        flush(l);
      });
    }
    return;
  }
  l.timer ??= setTimeout(() => {
    l.timer = null;
    flush(l);
  }, GATHER_MS);
}

/** The oldest requests, up to MAX_GROUP_EVENTS events (one at least). */
function take(l: Lane): Waiting[] {
  const group: Waiting[] = [];
  let events = 0;
  while (l.queue.length > 0) {
    const size = l.queue[0]!.prepared.events.length;
    if (group.length > 0 && events + size > MAX_GROUP_EVENTS) break;
    group.push(l.queue.shift()!);
    events += size;
  }
  return group;
}

function flush(l: Lane): void {
  if (l.timer) clearTimeout(l.timer);
  l.timer = null;
  if (l.queue.length === 0 || l.inFlight.size >= MAX_IN_FLIGHT) return;
  const done: Promise<void> = run(take(l)).finally(() => {
    l.inFlight.delete(done);
    schedule(l);
  });
  l.inFlight.add(done);
  schedule(l);
}

/**
 * Applies the requests of one group in one transaction; each request's own outcome.
 * A group that fails for any reason but an unreachable database is applied again
 * request by request, so a bad request fails alone and nothing is acknowledged that
 * did not commit; an unreachable database fails every request of the group (503, and
 * the hook spools).
 */
export async function commitGroup(
  requests: PreparedEvents[],
): Promise<PromiseSettledResult<EventsResponse>[]> {
  const stats = queues().stats;
  stats.groups++;
  stats.requests += requests.length;
  try {
    const responses = await applyGroup(requests);
    return responses.map((value) => ({ status: "fulfilled", value }));
  } catch (error) {
    if (requests.length === 1 || isDatabaseUnavailable(error))
      return requests.map(() => ({ status: "rejected", reason: error }));
    stats.retried++;
    const out: PromiseSettledResult<EventsResponse>[] = [];
    for (let i = 0; i < requests.length; i += RETRY_CONCURRENCY)
      out.push(
        ...(await Promise.allSettled(
          requests.slice(i, i + RETRY_CONCURRENCY).map(async (r) => (await applyGroup([r]))[0]!),
        )),
      );
    return out;
  }
}

async function run(group: Waiting[]): Promise<void> {
  const started = performance.now();
  const outcomes = await commitGroup(group.map((w) => w.prepared));
  const ended = performance.now();
  group.forEach((w, i) => {
    if (w.timing) {
      w.timing.queue = started - w.queuedAt;
      w.timing.commit = ended - started;
    }
    const outcome = outcomes[i]!;
    if (outcome.status === "fulfilled") w.resolve(outcome.value);
    else w.reject(outcome.reason);
  });
}

/**
 * Applies a request's events through group commit (see above) and answers with its own
 * results once they are committed. A request larger than LARGE_ABOVE_EVENTS goes in a
 * lane of its own (see LARGE_ABOVE_EVENTS).
 */
export async function submitEvents(
  events: AgentEvent[],
  source: string,
  timing?: IngestTiming,
): Promise<EventsResponse> {
  const started = performance.now();
  const prepared = await prepareEvents(events, source);
  if (timing) timing.retrieve = performance.now() - started;
  return enqueue(prepared, timing);
}

/** Queues a prepared request for the next group of its source (see submitEvents); `timing` is filled in when its group ends. */
export function enqueue(prepared: PreparedEvents, timing?: IngestTiming): Promise<EventsResponse> {
  const l = lane(prepared.source, prepared.events.length > LARGE_ABOVE_EVENTS);
  return new Promise<EventsResponse>((resolve, reject) => {
    l.queue.push({ prepared, resolve, reject, queuedAt: performance.now(), timing });
    schedule(l);
  });
}

/** Starts every queued group now and resolves when none is queued or in flight (shutdown). */
export async function drainIngestQueues(): Promise<void> {
  const q = queues();
  q.draining = true;
  try {
    for (;;) {
      const busy = [...q.lanes.values()].filter((l) => l.queue.length || l.inFlight.size);
      if (busy.length === 0) return;
      for (const l of busy) flush(l);
      await Promise.allSettled(busy.flatMap((l) => [...l.inFlight]));
    }
  } finally {
    q.draining = false;
  }
}

/** Groups committed since the process started, the requests they held, and the groups applied again request by request. */
export function groupStats(): Stats {
  return { ...queues().stats };
}

onDrain("ingest", drainIngestQueues);
