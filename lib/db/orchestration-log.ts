import type { OrchestrationEvent } from "@/lib/constitution/prefilter-cache";
import { log } from "@/lib/log";
import type { Prisma } from "./generated/prisma/client";
import { db } from "./client";

/** Events written together at most this long after the first of them was recorded. */
const FLUSH_MS = 50;
/** Events held while the database cannot take them; beyond this the oldest are dropped (and counted). */
const MAX_PENDING = 10_000;

/**
 * The prefilter cache's orchestration events (the constitution-store spec), written in batches: one
 * insert per flush rather than one per retrieval, so that a batch of prompts does
 * not queue a thousand writes behind the agents' events. Recording never blocks or
 * fails a retrieval; a failed write is logged and its events dropped.
 */
export class OrchestrationLog {
  private pending: Prisma.OrchestrationEventCreateManyInput[] = [];
  private timer: NodeJS.Timeout | undefined;
  private tail: Promise<unknown> = Promise.resolve();
  private dropped = 0;

  record(event: OrchestrationEvent): void {
    if (this.pending.length >= MAX_PENDING) {
      this.pending.shift();
      this.dropped++;
    }
    this.pending.push({
      type: event.type,
      runId: event.run_id ?? null,
      requestId: event.request_id ?? null,
      detail: { fingerprint: event.fingerprint, ...(event.detail ?? {}) } as Prisma.InputJsonValue,
    });
    this.timer ??= setTimeout(() => void this.write(), FLUSH_MS);
    this.timer.unref?.();
  }

  private write(): Promise<unknown> {
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    if (this.dropped) {
      log.warn(
        `dropped ${this.dropped} orchestration events while the database could not take them`,
      );
      this.dropped = 0;
    }
    if (batch.length === 0) return this.tail;
    this.tail = this.tail
      .then(() => db().orchestrationEvent.createMany({ data: batch }))
      .catch((error: unknown) =>
        log.warn(
          `could not record ${batch.length} orchestration events: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    return this.tail;
  }

  /** Writes what is pending now; resolves when every write has finished (tests and the CLI wait on it). */
  flush(): Promise<unknown> {
    clearTimeout(this.timer);
    return this.write();
  }
}

const globalLog = globalThis as unknown as { __charterOrchestrationLog?: OrchestrationLog };

/** The process's orchestration event log. */
export function orchestrationLog(): OrchestrationLog {
  globalLog.__charterOrchestrationLog ??= new OrchestrationLog();
  return globalLog.__charterOrchestrationLog;
}
