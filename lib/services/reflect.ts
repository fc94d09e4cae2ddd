import { randomUUID } from "node:crypto";
import { LlmTimeoutError, type LlmPort } from "@/lib/constitution/llm-port";
import type { Actor } from "@/lib/db/audit";
import { jobs } from "@/lib/db/jobs";
import { keyPoints } from "@/lib/db/key-points";
import { reflections, type ReflectionRecord } from "@/lib/db/reflections";
import { sessions } from "@/lib/db/sessions";
import { env, llmSettings } from "@/lib/env";
import { NotFoundError, UnavailableError } from "@/lib/errors";
import { parseWith } from "@/lib/json-reply";
import { createLlmClient } from "@/lib/llm/client";
import { log } from "@/lib/log";
import { extractionResultSchema, reflectorMessages } from "@/lib/playbook";
import { callLog } from "./constitution";
import { startWorkerLoop, type WorkerLoop } from "./worker-loop";

export const NO_LLM_MESSAGE =
  "The reflector needs an OpenAI-compatible endpoint: set OPENAI_BASE_URL (and OPENAI_API_KEY if it needs one), then restart Charter.";

/**
 * A reflection applied what the reply held; `warnings` names each item it skipped (malformed, a duplicate text, an unknown name);
 * `proposed` and `withdrawn` are the prune proposals its counts made and took back.
 */
export type ReflectionOutcome = ReflectionRecord;

function defaultLlm(): LlmPort {
  const settings = llmSettings();
  if (!settings) throw new UnavailableError(NO_LLM_MESSAGE);
  return createLlmClient({ baseURL: settings.baseURL, apiKey: settings.apiKey, log: callLog() });
}

/**
 * Runs the reflector on a session: one LLM call returns an ExtractionResult (JSON
 * object; prose-wrapped JSON is recovered), which is applied to the playbook item by
 * item: malformed items are skipped and recorded as warnings, the rest applied. A
 * reply that is not an object is logged and recorded, and applies nothing.
 */
export async function reflectSession(
  sessionId: string,
  actor: Actor,
  llm: LlmPort = defaultLlm(),
): Promise<ReflectionOutcome> {
  const session = await sessions.forReflection(sessionId);
  if (!session) throw new NotFoundError(`No session ${sessionId}.`);
  const { turns, tools } = session;
  const injected = await keyPoints.byNames([...new Set(turns.flatMap((t) => t.injectedKeyPoints))]);
  const messages = reflectorMessages({
    turns: turns.map((t) => ({
      prompt: t.prompt,
      response: t.response,
      tools: tools
        .filter((c) => c.turnNumber === t.number)
        .map((c) => ({ name: c.name, succeeded: c.succeeded })),
    })),
    injected: injected.map((k) => ({
      name: k.name,
      text: k.text,
      helpful: k.helpful,
      harmful: k.harmful,
    })),
  });
  let outcome: ReflectionOutcome;
  try {
    const reply = await llm.complete({
      component: "reflector",
      model: env().CHARTER_LLM_MODEL,
      messages,
      json: true,
      timeoutMs: env().CHARTER_LLM_TIMEOUT_MS,
      requestId: sessionId,
    });
    const parsed = parseWith(reply.text, extractionResultSchema);
    llm.recordParse?.({ component: "reflector", requestId: sessionId }, parsed.contract);
    if (!parsed.ok) {
      outcome = {
        status: "failed",
        error: `the reply is not an ExtractionResult: ${parsed.contract.failures.map((f) => `${f.parser}: ${f.reason}`).join("; ")}`,
      };
    } else {
      const applied = await keyPoints.applyExtraction(parsed.value, sessionId, actor);
      outcome = {
        status: "applied",
        extraction: {
          new_key_points: parsed.value.new_key_points,
          evaluations: parsed.value.evaluations,
        },
        ...applied,
      };
    }
  } catch (error) {
    outcome = {
      status: "failed",
      error:
        error instanceof LlmTimeoutError
          ? `timeout: ${error.message}`
          : error instanceof Error
            ? error.message
            : String(error),
    };
  }
  if (outcome.status === "failed")
    log.warn(`reflector on session ${sessionId} applied nothing: ${outcome.error}`);
  else if (outcome.warnings.length)
    log.warn(
      `reflector on session ${sessionId} skipped ${outcome.warnings.length} item(s): ${outcome.warnings.join("; ")}`,
    );
  await reflections.record(sessionId, outcome);
  return outcome;
}

/** Reflections run at once by one process; the rest wait in the queue. */
export const REFLECT_CONCURRENCY = 2;
/** A reflection job that failed this many times (not the model's answer: the run itself) is given up. */
export const REFLECT_ATTEMPTS = 3;

type ReflectJob = { id: number; session_id: string };

/** Claims up to `limit` queued reflections, or ones whose process died mid-run (see jobs.claim). */
async function claimReflections(owner: string, limit: number): Promise<ReflectJob[]> {
  const claimed = await jobs.claim("reflect", owner, {
    limit,
    leaseSeconds: Math.ceil(env().CHARTER_LLM_TIMEOUT_MS / 1000) + 30,
  });
  return claimed.map((job) => ({ id: job.id, session_id: job.session_id! }));
}

async function runReflection(job: ReflectJob, owner: string): Promise<void> {
  try {
    await reflectSession(job.session_id, { id: null, label: "reflector" });
    await jobs.finish(job.id, owner);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.warn(`reflector at SessionEnd for ${job.session_id}: ${message}`);
    // Released for another try, unless it has had its tries.
    await jobs.release(job.id, owner, message, REFLECT_ATTEMPTS).catch(() => undefined);
  }
}

/** Runs queued reflections, at most REFLECT_CONCURRENCY at a time, until none is left. */
export async function drainReflections(
  owner: string = randomUUID(),
  concurrency = REFLECT_CONCURRENCY,
): Promise<number> {
  let done = 0;
  for (
    let batch = await claimReflections(owner, concurrency);
    batch.length;
    batch = await claimReflections(owner, concurrency)
  ) {
    await Promise.all(batch.map((job) => runReflection(job, owner)));
    done += batch.length;
  }
  return done;
}

const globalWorker = globalThis as unknown as { __charterReflect?: WorkerLoop };

/**
 * Starts this process's reflection worker: it polls the queue, wakes at once on a
 * SessionEnd, and backs off (logging once) while the database is down.
 */
export function startReflectionWorker(intervalMs = 2_000): void {
  if (globalWorker.__charterReflect) return;
  const owner = `${process.pid}-${randomUUID()}`;
  globalWorker.__charterReflect = startWorkerLoop(
    async () => {
      await drainReflections(owner);
    },
    { name: "the reflection worker", intervalMs },
  );
}

/** Stops this process's reflection worker (at shutdown). */
export function stopReflectionWorker(): void {
  globalWorker.__charterReflect?.stop();
  globalWorker.__charterReflect = undefined;
}

/** Runs the queue now rather than at the next poll (no-op where no worker runs, e.g. the CLI). */
export function wakeReflectionWorker(): void {
  globalWorker.__charterReflect?.wake();
}
