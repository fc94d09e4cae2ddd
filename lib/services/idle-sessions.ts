import { createHash, randomUUID } from "node:crypto";
import { sessions } from "@/lib/db/sessions";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { agentEventSchema, type AgentEvent } from "@/lib/schemas/events";
import { ingestEvents } from "./ingest";
import { startWorkerLoop, type WorkerLoop } from "./worker-loop";

/** The reason an idle session is ended with (session_end_reason, as an agent's own would be). */
export const IDLE_REASON = "idle";

/**
 * The SessionEnd that ends an idle session, at its last event. Its id is derived from the
 * session, so two instances sweeping at once end it once (the second is a duplicate).
 */
export function idleEnd(session: { id: string; lastEventAt: Date }): AgentEvent {
  const digest = createHash("sha256").update(session.id).digest("hex").slice(0, 40);
  return agentEventSchema.parse({
    id: `idle-end-${digest}`,
    session_id: session.id,
    type: "SessionEnd",
    at: session.lastEventAt.toISOString(),
    reason: IDLE_REASON,
  });
}

/**
 * Ends the sessions with no event for `idleMinutes`, as a SessionEnd at their last event
 * would: outcome, credits, the reflector when it is on. Codex CLI tells no session end,
 * and any agent's session can stop without one (a closed terminal, a crash). Returns how
 * many it ended.
 */
export async function endIdleSessions(
  idleMinutes: number,
  now: Date = new Date(),
  batch = 200,
): Promise<number> {
  if (idleMinutes <= 0) return 0;
  let ended = 0;
  for (;;) {
    const found = await sessions.idle(new Date(now.getTime() - idleMinutes * 60_000), batch);
    if (found.length === 0) return ended;
    const response = await ingestEvents(found.map(idleEnd), { source: "idle" });
    ended += response.accepted;
    if (found.length < batch) return ended;
  }
}

const globalWorker = globalThis as unknown as { __charterIdle?: WorkerLoop };

/** Starts this process's idle-session sweep (every minute; off when CHARTER_SESSION_IDLE_MINUTES is 0). */
export function startIdleSessionWorker(intervalMs = 60_000): void {
  const minutes = env().CHARTER_SESSION_IDLE_MINUTES;
  if (globalWorker.__charterIdle || minutes <= 0) return;
  const owner = `${process.pid}-${randomUUID()}`;
  globalWorker.__charterIdle = startWorkerLoop(
    async () => {
      const ended = await endIdleSessions(minutes);
      if (ended > 0)
        log.info(`ended ${ended} session(s) idle for ${minutes} minutes (${owner.slice(0, 8)})`);
    },
    { name: "the idle-session sweep", intervalMs },
  );
}

export function stopIdleSessionWorker(): void {
  globalWorker.__charterIdle?.stop();
  globalWorker.__charterIdle = undefined;
}
