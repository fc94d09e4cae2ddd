import { randomUUID } from "node:crypto";
import { LlmTimeoutError, type LlmPort } from "@/lib/constitution/llm-port";
import { db } from "@/lib/db/client";
import { playbookStore } from "@/lib/db/playbook";
import { env, llmSettings } from "@/lib/env";
import { NotFoundError, UnavailableError } from "@/lib/errors";
import { parseWith } from "@/lib/json-reply";
import { createLlmClient } from "@/lib/llm/client";
import { log } from "@/lib/log";
import { extractionResultSchema, reflectorMessages, type ExtractionResult } from "@/lib/playbook";
import type { Actor } from "@/lib/db/audit";
import { callLog } from "./constitution";

export const NO_LLM_MESSAGE = "The reflector needs an OpenAI-compatible endpoint: set OPENAI_BASE_URL (and OPENAI_API_KEY if it needs one), then restart Charter.";

export type ReflectionOutcome = { status: "applied"; extraction: ExtractionResult; added: string[]; evaluated: number; proposed: string[] } | { status: "failed"; error: string };

function defaultLlm(): LlmPort {
  const settings = llmSettings();
  if (!settings) throw new UnavailableError(NO_LLM_MESSAGE);
  return createLlmClient({ baseURL: settings.baseURL, apiKey: settings.apiKey, log: callLog() });
}

/**
 * Runs the reflector on a session: one LLM call returns an ExtractionResult (JSON
 * object, validated by the schema; prose-wrapped JSON is recovered), which is
 * applied to the playbook. Anything else is logged and recorded, and applies nothing.
 */
export async function reflectSession(sessionId: string, actor: Actor, llm: LlmPort = defaultLlm()): Promise<ReflectionOutcome> {
  const session = await db().agentSession.findUnique({ where: { id: sessionId } });
  if (!session) throw new NotFoundError(`No session ${sessionId}.`);
  const [turns, tools] = await Promise.all([
    db().turn.findMany({ where: { sessionId }, orderBy: { number: "asc" } }),
    db().toolCall.findMany({ where: { sessionId }, orderBy: { at: "asc" } }),
  ]);
  const injectedNames = [...new Set(turns.flatMap((t) => t.injectedKeyPoints))];
  const injected = await db().keyPoint.findMany({ where: { name: { in: injectedNames } }, orderBy: { name: "asc" } });
  const messages = reflectorMessages({
    turns: turns.map((t) => ({ prompt: t.prompt, response: t.response, tools: tools.filter((c) => c.turnNumber === t.number).map((c) => ({ name: c.name, succeeded: c.succeeded })) })),
    injected: injected.map((k) => ({ name: k.name, text: k.text, helpful: k.helpful, harmful: k.harmful })),
  });
  const record = (outcome: ReflectionOutcome) =>
    db().reflection.create({
      data: { id: randomUUID(), sessionId, status: outcome.status, result: outcome.status === "applied" ? { extraction: outcome.extraction, added: outcome.added, evaluated: outcome.evaluated, proposed: outcome.proposed } : undefined, error: outcome.status === "failed" ? outcome.error : null },
    });
  let outcome: ReflectionOutcome;
  try {
    const reply = await llm.complete({ component: "reflector", model: env().CHARTER_LLM_MODEL, messages, json: true, timeoutMs: env().CHARTER_LLM_TIMEOUT_MS, requestId: sessionId });
    const parsed = parseWith(reply.text, extractionResultSchema);
    llm.recordParse?.({ component: "reflector", requestId: sessionId }, parsed.contract);
    if (!parsed.ok) {
      outcome = { status: "failed", error: `the reply is not an ExtractionResult: ${parsed.contract.failures.map((f) => `${f.parser}: ${f.reason}`).join("; ")}` };
    } else {
      const applied = await playbookStore.applyExtraction(parsed.value, sessionId, actor);
      outcome = { status: "applied", extraction: parsed.value, ...applied };
    }
  } catch (error) {
    outcome = { status: "failed", error: error instanceof LlmTimeoutError ? `timeout: ${error.message}` : error instanceof Error ? error.message : String(error) };
  }
  if (outcome.status === "failed") log.warn(`reflector on session ${sessionId} applied nothing: ${outcome.error}`);
  await record(outcome);
  return outcome;
}

/** The newest reflection of a session, for its page. */
export async function lastReflection(sessionId: string) {
  return db().reflection.findFirst({ where: { sessionId }, orderBy: { createdAt: "desc" } });
}
