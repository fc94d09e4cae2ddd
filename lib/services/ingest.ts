import { randomUUID } from "node:crypto";
import { analyzeUserFeedback } from "@/lib/credit/feedback";
import { determineToolSuccess } from "@/lib/credit/tool-success";
import { creditSession } from "@/lib/db/credit";
import type { Prisma } from "@/lib/db/generated/prisma/client";
import { db } from "@/lib/db/client";
import { playbookStore } from "@/lib/db/playbook";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { weightSets, type WeightSetRow } from "@/lib/db/weights";
import { constitutionalReward, effectiveScore, type ScoreDict } from "@/lib/reward";
import { MAX_TOOL_OUTPUT, MUTATING_TOOLS, type AgentEvent, type EventResult, type EventsResponse } from "@/lib/schemas/events";
import { principlesContext } from "@/lib/constitution";
import { currentStore } from "./constitution";

type Tx = Prisma.TransactionClient;
type Retrieved = { principles: NonNullable<EventResult["principles"]>; additional_context: string; version: number; keyPoints: string[] };

const MUTATING = new Set<string>(MUTATING_TOOLS);

function truncate(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > MAX_TOOL_OUTPUT ? `${text.slice(0, MAX_TOOL_OUTPUT)}… [truncated ${text.length - MAX_TOOL_OUTPUT} characters]` : text;
}

async function retrieveFor(prompt: string, requestId: string): Promise<Retrieved> {
  const { store, version } = await currentStore();
  const playbook = await playbookStore.forInjection(env().CHARTER_PLAYBOOK_INJECT);
  const result = await store.getRelevantPrinciples(prompt, { requestId });
  const principles = result.principles.map((p) => ({ id: p.id, title: p.title, level: p.level, priority: p.priority, confidence: p.confidence }));
  const context = [
    principlesContext(version.id, result.principles),
    playbook.text ? `Playbook: lessons from earlier sessions, with how often each helped or harmed (weigh them by that):\n${playbook.text}` : "",
  ].filter(Boolean);
  return { principles, additional_context: context.join("\n\n"), version: version.id, keyPoints: playbook.names };
}

async function touchSession(tx: Tx, event: AgentEvent, at: Date, source: string): Promise<void> {
  await tx.agentSession.upsert({
    where: { id: event.session_id },
    create: { id: event.session_id, source, cwd: event.cwd ?? null, transcriptPath: event.transcript_path ?? null, startedAt: at, lastEventAt: at },
    update: { lastEventAt: at, ...(event.cwd ? { cwd: event.cwd } : {}), ...(event.transcript_path ? { transcriptPath: event.transcript_path } : {}) },
  });
}

/** The session's latest turn, created (with no prompt) when tools or a stop arrive before any prompt. */
async function latestTurn(tx: Tx, sessionId: string, at: Date) {
  const turn = await tx.turn.findFirst({ where: { sessionId }, orderBy: { number: "desc" } });
  return turn ?? tx.turn.create({ data: { id: randomUUID(), sessionId, number: 1, startedAt: at } });
}

/** Writes a turn's score row from engine scores, the reviewer overrides and a weight set. */
export async function writeScore(tx: Tx, input: { turnId: string; engine: ScoreDict; overrides: Partial<ScoreDict>; reasoning: string; weights: WeightSetRow; constitutionVersionId: number | null; rescored?: boolean }) {
  const effective = effectiveScore(input.engine, input.overrides);
  const columns = {
    engineScores: input.engine,
    tasteful: effective.tasteful,
    curated: effective.curated,
    ethical: effective.ethical,
    joyInducing: effective.joy_inducing,
    composable: effective.composable,
    heterarchical: effective.heterarchical,
    generative: effective.generative,
    weightedTotal: effective.weightedTotal(input.weights.weights),
    maxTotal: input.weights.maxTotal,
    normalizedTotal: effective.normalizedTotal(input.weights.weights),
    reasoning: input.reasoning,
    weightSetId: input.weights.id,
    constitutionVersionId: input.constitutionVersionId,
  };
  await tx.turnScore.upsert({ where: { turnId: input.turnId }, create: { turnId: input.turnId, ...columns }, update: { ...columns, ...(input.rescored ? { scoredAt: new Date() } : {}) } });
  return { weighted_total: columns.weightedTotal, normalized_total: columns.normalizedTotal };
}

async function apply(tx: Tx, event: AgentEvent, at: Date, ctx: { retrieved?: Retrieved; weights: WeightSetRow; source: string }): Promise<EventResult> {
  await touchSession(tx, event, at, ctx.source);
  switch (event.type) {
    case "UserPromptSubmit": {
      const previous = await tx.turn.findMany({ where: { sessionId: event.session_id }, orderBy: { number: "asc" }, select: { number: true, prompt: true } });
      const number = (previous.at(-1)?.number ?? 0) + 1;
      const recentTools = previous.length ? await tx.toolCall.findMany({ where: { sessionId: event.session_id, turnNumber: previous.at(-1)!.number }, select: { id: true } }) : [];
      // Seed 003: what this prompt says about the agent's previous turn.
      const feedback = analyzeUserFeedback(event.prompt, previous.map((t) => t.prompt), recentTools);
      await tx.turn.create({
        data: {
          id: randomUUID(),
          sessionId: event.session_id,
          number,
          prompt: event.prompt,
          startedAt: at,
          injectedPrinciples: ctx.retrieved?.principles.map((p) => p.id) ?? [],
          injectedKeyPoints: ctx.retrieved?.keyPoints ?? [],
          constitutionVersionId: ctx.retrieved?.version ?? null,
          feedback: feedback as unknown as Prisma.InputJsonValue,
        },
      });
      return { id: event.id, status: "accepted", turn: number, principles: ctx.retrieved?.principles ?? [], additional_context: ctx.retrieved?.additional_context ?? "" };
    }
    case "PostToolUse": {
      const turn = await latestTurn(tx, event.session_id, at);
      await tx.toolCall.create({
        data: {
          id: event.id,
          sessionId: event.session_id,
          turnNumber: turn.number,
          toolUseId: event.tool_use_id ?? null,
          name: event.tool_name,
          input: (event.tool_input ?? undefined) as Prisma.InputJsonValue | undefined,
          output: truncate(event.tool_response),
          succeeded: determineToolSuccess(event.tool_name, event.tool_response ?? ""),
          activePrinciples: turn.injectedPrinciples,
          at,
        },
      });
      return { id: event.id, status: "accepted", turn: turn.number };
    }
    case "Stop": {
      const turn = await latestTurn(tx, event.session_id, at);
      const tools = await tx.toolCall.findMany({ where: { sessionId: event.session_id, turnNumber: turn.number }, orderBy: { at: "asc" } });
      const toolsPassed = tools.every((t) => t.succeeded);
      const hasMutations = tools.some((t) => t.succeeded && MUTATING.has(t.name));
      const reward = constitutionalReward(
        event.action,
        { response: event.response, tools: tools.map((t) => ({ name: t.name, status: t.succeeded ? "success" : "failed" })), tools_passed: toolsPassed, context_utilization: event.context_utilization },
        hasMutations,
      );
      await tx.turn.update({ where: { id: turn.id }, data: { response: event.response, action: event.action, toolsPassed, hasMutations, contextUtilization: event.context_utilization ?? null, stoppedAt: at } });
      const overrides = await tx.scoreOverride.findMany({ where: { turnId: turn.id } });
      const score = await writeScore(tx, {
        turnId: turn.id,
        engine: reward.score.toDict(),
        overrides: Object.fromEntries(overrides.map((o) => [o.principle, o.value])),
        reasoning: reward.reasoning,
        weights: ctx.weights,
        constitutionVersionId: turn.constitutionVersionId,
        rescored: true,
      });
      return { id: event.id, status: "accepted", turn: turn.number, score };
    }
    case "SessionEnd": {
      await tx.agentSession.update({ where: { id: event.session_id }, data: { endedAt: at, endReason: event.reason ?? null } });
      // Seed 003: credit every injected principle, once per session.
      const outcome = await creditSession(tx, event.session_id);
      return { id: event.id, status: "accepted", ...(outcome ? { outcome: { status: outcome.status, score: outcome.score } } : {}) };
    }
  }
}

/**
 * Applies agent events in order, in one transaction: all of a batch or none. An
 * event whose id was seen before is not applied again; its first result is returned.
 */
export async function ingestEvents(events: AgentEvent[], options: { source?: string } = {}): Promise<EventsResponse> {
  const weights = await weightSets.current();
  // Retrieval may call an LLM: do it before the transaction, never inside it.
  const retrieved = new Map<string, Retrieved>();
  for (const event of events) if (event.type === "UserPromptSubmit") retrieved.set(event.id, await retrieveFor(event.prompt, event.id));

  const results = await db().$transaction(
    async (tx) => {
      const out: EventResult[] = [];
      for (const event of events) {
        const at = event.at ? new Date(event.at) : new Date();
        const fresh = await tx.$queryRaw<{ id: string }[]>`INSERT INTO agent_event (id, session_id, type) VALUES (${event.id}, ${event.session_id}, ${event.type}) ON CONFLICT (id) DO NOTHING RETURNING id`;
        if (fresh.length === 0) {
          const seen = await tx.agentEvent.findUnique({ where: { id: event.id }, select: { result: true } });
          out.push({ ...((seen?.result as EventResult | null) ?? { id: event.id }), status: "duplicate" });
          continue;
        }
        const result = await apply(tx, event, at, { retrieved: retrieved.get(event.id), weights, source: options.source ?? "hook" });
        await tx.agentEvent.update({ where: { id: event.id }, data: { result: result as unknown as Prisma.InputJsonValue } });
        out.push(result);
      }
      return out;
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
  if (env().CHARTER_REFLECT_ON_SESSION_END) {
    for (const r of results) {
      const event = events.find((e) => e.id === r.id);
      if (r.status !== "accepted" || event?.type !== "SessionEnd") continue;
      // After the transaction, in the background: a slow model never holds up the agent's hook.
      void import("./reflect")
        .then(({ reflectSession }) => reflectSession(event.session_id, { id: null, label: "reflector" }))
        .catch((error: unknown) => log.warn(`reflector at SessionEnd: ${error instanceof Error ? error.message : String(error)}`));
    }
  }
  return { accepted: results.filter((r) => r.status === "accepted").length, duplicates: results.filter((r) => r.status === "duplicate").length, results };
}

