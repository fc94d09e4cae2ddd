import { warmUpKey } from "@/lib/auth/warm-up";
import { log } from "@/lib/log";

/** How long the warm-up keeps asking before the server reports ready anyway (so a start is never stuck). */
export const WARM_UP_BOUND_MS = 60_000;
/** The first pause between tries; it doubles up to WARM_UP_MAX_PAUSE_MS. */
const WARM_UP_FIRST_PAUSE_MS = 50;
const WARM_UP_MAX_PAUSE_MS = 2_000;
/** One try's wait for an answer: the first request compiles the route, which takes seconds on a busy machine. */
const WARM_UP_REQUEST_TIMEOUT_MS = 20_000;

export type WarmUpResult =
  { ok: true; ms: number; tries: number } | { ok: false; ms: number; tries: number; last: string };

/** The event the warm-up sends: a prompt, so the whole UserPromptSubmit path (key, retrieval, every write) runs. */
function warmUpEvent(): string {
  return JSON.stringify({
    type: "UserPromptSubmit",
    id: `charter-warm-up-${process.pid}`,
    session_id: `charter-warm-up-${process.pid}`,
    prompt: "warm up the ingestion path before the first agent's prompt",
  });
}

/**
 * Sends one UserPromptSubmit event through this instance's real ingestion route with
 * the process's warm-up key (lib/auth/warm-up.ts: the route runs it and rolls it
 * back), until it answers 200. A connection refused or a 5xx is tried again with
 * backoff (the server is not listening yet, or the database is slow); another 4xx is
 * final (the route will not change its mind). Never throws.
 */
export async function sendWarmUpEvent(
  selfUrl: string,
  boundMs = WARM_UP_BOUND_MS,
): Promise<WarmUpResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let pause = WARM_UP_FIRST_PAUSE_MS;
  let tries = 0;
  let last = "no answer";
  while (elapsed() < boundMs) {
    tries += 1;
    try {
      const res = await fetch(`${selfUrl}/api/v1/events`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": warmUpKey() },
        body: warmUpEvent(),
        signal: AbortSignal.timeout(Math.min(WARM_UP_REQUEST_TIMEOUT_MS, boundMs)),
      });
      if (res.ok) return { ok: true, ms: elapsed(), tries };
      last = `${res.status} ${(await res.text()).slice(0, 200)}`;
      if (res.status < 500) return { ok: false, ms: elapsed(), tries, last };
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, WARM_UP_MAX_PAUSE_MS);
  }
  return { ok: false, ms: elapsed(), tries, last };
}

/** The warm-up at start, with one line on how it went; the server reports ready after it either way. */
export async function warmIngestPath(selfUrl: string | undefined): Promise<void> {
  if (!selfUrl) return;
  const result = await sendWarmUpEvent(selfUrl);
  if (result.ok) log.info(`ingestion path ready in ${result.ms} ms`);
  else
    log.warn(
      `the warm-up event through ${selfUrl}/api/v1/events was not accepted after ${result.tries} tr${result.tries === 1 ? "y" : "ies"} in ${result.ms} ms (last: ${result.last}); reporting ready anyway, and the first prompt may be slow`,
    );
}
