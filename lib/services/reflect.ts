import { randomUUID } from "node:crypto";
import { LlmTimeoutError, type LlmPort } from "@/lib/constitution/llm-port";
import { db } from "@/lib/db/client";
import { claimJobs } from "@/lib/db/jobs";
import { playbookStore } from "@/lib/db/playbook";
import { env, llmSettings } from "@/lib/env";
import { NotFoundError, UnavailableError } from "@/lib/errors";
import { parseWith } from "@/lib/json-reply";
import { createLlmClient } from "@/lib/llm/client";
import { log } from "@/lib/log";
import { extractionResultSchema, reflectorMessages, type ExtractionResult } from "@/lib/playbook";
import type { Actor } from "@/lib/db/audit";
import { callLog } from "./constitution";

export const NO_LLM_MESSAGE =
  "The reflector needs an OpenAI-compatible endpoint: set OPENAI_BASE_URL (and OPENAI_API_KEY if it needs one), then restart Charter.";

/**
 * A reflection applied what the reply held; `warnings` names each item it skipped (malformed, a duplicate text, an unknown name);
 * `proposed` and `withdrawn` are the prune proposals its counts made and took back.
 */
export type ReflectionOutcome =
  | {
      status: "applied";
      extraction: ExtractionResult;
      added: string[];
      evaluated: number;
      proposed: string[];
      withdrawn: string[];
      warnings: string[];
    }
  | { status: "failed"; error: string };

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
  const session = await db().agentSession.findUnique({ where: { id: sessionId } });
  if (!session) throw new NotFoundError(`No session ${sessionId}.`);
  const [turns, tools] = await Promise.all([
    db().turn.findMany({ where: { sessionId }, orderBy: { number: "asc" } }),
    db().toolCall.findMany({ where: { sessionId }, orderBy: { at: "asc" } }),
  ]);
  const injectedNames = [...new Set(turns.flatMap((t) => t.injectedKeyPoints))];
  const injected = await db().keyPoint.findMany({
    where: { name: { in: injectedNames } },
    orderBy: { name: "asc" },
  });
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
  const record = (outcome: ReflectionOutcome) =>
    db().reflection.create({
      data: {
        id: randomUUID(),
        sessionId,
        status: outcome.status,
        result:
          outcome.status === "applied"
            ? {
                extraction: outcome.extraction,
                added: outcome.added,
                evaluated: outcome.evaluated,
                proposed: outcome.proposed,
                withdrawn: outcome.withdrawn,
                warnings: outcome.warnings,
              }
            : undefined,
        error: outcome.status === "failed" ? outcome.error : null,
      },
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
      const applied = await playbookStore.applyExtraction(parsed.value, sessionId, actor);
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
  await record(outcome);
  return outcome;
}

/** The newest reflection of a session, for its page. */
export async function lastReflection(sessionId: string) {
  return db().reflection.findFirst({ where: { sessionId }, orderBy: { createdAt: "desc" } });
}

/** Reflections run at once by one process; the rest wait in the queue. */
export const REFLECT_CONCURRENCY = 2;
/** A reflection job that failed this many times (not the model's answer: the run itself) is given up. */
export const REFLECT_ATTEMPTS = 3;

type ReflectJob = { id: number; session_id: string };

/** Claims up to `limit` queued reflections, or ones whose process died mid-run (see claimJobs). */
async function claimReflections(owner: string, limit: number): Promise<ReflectJob[]> {
  const jobs = await claimJobs("reflect", owner, {
    limit,
    leaseSeconds: Math.ceil(env().CHARTER_LLM_TIMEOUT_MS / 1000) + 30,
  });
  return jobs.map((job) => ({ id: job.id, session_id: job.session_id! }));
}

async function runReflection(job: ReflectJob, owner: string): Promise<void> {
  try {
    await reflectSession(job.session_id, { id: null, label: "reflector" });
    await db().recomputeJob.updateMany({
      where: { id: job.id, leaseOwner: owner },
      data: { status: "done", finishedAt: new Date(), leaseOwner: null },
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.warn(`reflector at SessionEnd for ${job.session_id}: ${message}`);
    // Released for another try, unless it has had its tries.
    await db()
      .$executeRaw`UPDATE recompute_job SET status = CASE WHEN attempts >= ${REFLECT_ATTEMPTS} THEN 'failed' ELSE 'queued' END, error = ${message}, lease_owner = NULL, lease_until = NULL WHERE id = ${job.id} AND lease_owner = ${owner}`.catch(
      () => undefined,
    );
  }
}

/** Runs queued reflections, at most REFLECT_CONCURRENCY at a time, until none is left. */
export async function drainReflections(
  owner: string = randomUUID(),
  concurrency = REFLECT_CONCURRENCY,
): Promise<number> {
  let done = 0;
  for (
    let jobs = await claimReflections(owner, concurrency);
    jobs.length;
    jobs = await claimReflections(owner, concurrency)
  ) {
    await Promise.all(jobs.map((job) => runReflection(job, owner)));
    done += jobs.length;
  }
  return done;
}

const globalWorker = globalThis as unknown as { __charterReflect?: { tick: () => Promise<void> } };

/** Starts this process's reflection worker: it polls the queue, and wakes at once on a SessionEnd. */
export function startReflectionWorker(intervalMs = 2_000): void {
  if (globalWorker.__charterReflect) return;
  const owner = `${process.pid}-${randomUUID()}`;
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      await drainReflections(owner);
    } catch (error) {
      log.warn(
        `the reflection worker failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      busy = false;
    }
  };
  setInterval(() => void tick(), intervalMs).unref();
  globalWorker.__charterReflect = { tick };
}

/** Runs the queue now rather than at the next poll (no-op where no worker runs, e.g. the CLI). */
export function wakeReflectionWorker(): void {
  void globalWorker.__charterReflect?.tick();
}
