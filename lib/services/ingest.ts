import { v7 as timeOrderedId } from "uuid";
import { principlesContext } from "@/lib/constitution";
import { analyzeUserFeedback } from "@/lib/credit/feedback";
import { determineToolSuccess } from "@/lib/credit/tool-success";
import { creditSessions } from "@/lib/db/credit";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/prisma/client";
import * as rows from "@/lib/db/ingest";
import { playbookStore } from "@/lib/db/playbook";
import { weightSets, type WeightSetRow } from "@/lib/db/weights";
import { env } from "@/lib/env";
import { constitutionalReward, effectiveScore, type ScoreDict } from "@/lib/reward";
import { normalizeText } from "@/lib/schemas/text";
import {
  MAX_TOOL_OUTPUT,
  MUTATING_TOOLS,
  type AgentEvent,
  type EventResult,
  type EventsResponse,
} from "@/lib/schemas/events";
import { currentStore } from "./constitution";

type Tx = Prisma.TransactionClient;
type Retrieved = {
  principles: NonNullable<EventResult["principles"]>;
  additional_context: string;
  version: number;
  keyPoints: string[];
};
type UserPrompt = Extract<AgentEvent, { type: "UserPromptSubmit" }>;

const MUTATING = new Set<string>(MUTATING_TOOLS);

/** The first `max` characters and how many were cut; a surrogate pair cut in half becomes U+FFFD (PostgreSQL refuses half a pair). */
function cut(text: string, max: number): string {
  return text.length > max
    ? `${normalizeText(text.slice(0, max))}… [truncated ${text.length - max} characters]`
    : text;
}

/** Text kept up to MAX_TOOL_OUTPUT characters, with how much was cut. */
function truncate(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return cut(typeof value === "string" ? value : JSON.stringify(value), MAX_TOOL_OUTPUT);
}

/**
 * A tool's input kept like its output: up to MAX_TOOL_OUTPUT characters of JSON. A
 * larger input keeps its short fields (file paths, commands: what credit reads) and
 * says what it cut; strings longer than a tenth of the limit are shortened first.
 */
export function capToolInput(input: unknown): unknown {
  if (input === undefined || input === null) return null;
  const text = JSON.stringify(input);
  if (text.length <= MAX_TOOL_OUTPUT) return input;
  if (typeof input !== "object" || Array.isArray(input))
    return { _truncated: text.length, preview: normalizeText(text.slice(0, MAX_TOOL_OUTPUT)) };
  const field = MAX_TOOL_OUTPUT / 10;
  const kept: Record<string, unknown> = {};
  let size = 0;
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    const short = typeof value === "string" ? cut(value, field) : value;
    const length = JSON.stringify(short)?.length ?? 0;
    if (size + length > MAX_TOOL_OUTPUT) continue;
    kept[key] = short;
    size += length + key.length;
  }
  return { ...kept, _truncated: text.length };
}

/** A turn's score columns from engine scores, reviewer overrides and a weight set. */
export function scoreColumns(input: {
  engine: ScoreDict;
  overrides: Partial<ScoreDict>;
  reasoning: string;
  weights: WeightSetRow;
  constitutionVersionId: number | null;
}) {
  const effective = effectiveScore(input.engine, input.overrides);
  return {
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
}

/** Writes one turn's score row (a reviewer's override re-scores a turn this way). */
export async function writeScore(
  tx: Tx,
  input: Parameters<typeof scoreColumns>[0] & { turnId: string; rescored?: boolean },
) {
  const columns = scoreColumns(input);
  await tx.turnScore.upsert({
    where: { turnId: input.turnId },
    create: { turnId: input.turnId, ...columns },
    update: { ...columns, ...(input.rescored ? { scoredAt: new Date() } : {}) },
  });
  return { weighted_total: columns.weightedTotal, normalized_total: columns.normalizedTotal };
}

/** Whether the agent was given what the server answers for this prompt. */
function delivery(event: UserPrompt, source: string): rows.NewTurn["context_delivery"] {
  if (source === "import") return "imported";
  return event.context_delivered === false ? "spooled" : "delivered";
}

/**
 * Retrieval for the fresh prompts of a batch, before its transaction. A prompt whose
 * answer reaches the agent takes the configured path (which may ask a model); one
 * that never reaches it (spooled, imported) is kept as "would have injected" from
 * the lexical path alone, which costs no model call.
 */
async function retrieveAll(
  prompts: { event: UserPrompt; delivered: boolean }[],
): Promise<Map<string, Retrieved>> {
  const out = new Map<string, Retrieved>();
  if (prompts.length === 0) return out;
  const [{ store, version }, playbook] = await Promise.all([
    currentStore(),
    playbookStore.forInjection(env().CHARTER_PLAYBOOK_INJECT),
  ]);
  for (const { event, delivered } of prompts) {
    const principles = delivered
      ? (await store.getRelevantPrinciples(event.prompt, { requestId: event.id })).principles
      : store.retrieveLexical(event.prompt).principles;
    const context = [
      principlesContext(version.id, principles),
      playbook.text
        ? `Playbook: lessons from earlier sessions, with how often each helped or harmed (weigh them by that):\n${playbook.text}`
        : "",
    ].filter(Boolean);
    out.set(event.id, {
      principles: principles.map((p) => ({
        id: p.id,
        title: p.title,
        level: p.level,
        priority: p.priority,
        confidence: p.confidence,
      })),
      additional_context: context.join("\n\n"),
      version: version.id,
      keyPoints: playbook.names,
    });
  }
  return out;
}

/**
 * Everything a batch writes, built in memory from the sessions' latest turns: the
 * events are applied in order exactly as one-at-a-time ingestion would apply them.
 */
class BatchPlan {
  readonly newTurns: rows.NewTurn[] = [];
  readonly stops = new Map<string, rows.TurnStop>();
  readonly toolCalls: rows.NewToolCall[] = [];
  readonly scored = new Map<
    string,
    {
      engine: ScoreDict;
      reasoning: string;
      constitutionVersionId: number | null;
      resultIndex: number[];
    }
  >();
  readonly ends = new Map<string, { id: string; at: string; reason: string | null }>();
  readonly results: EventResult[] = [];

  constructor(
    /** Each session's latest turn, stored or opened by this batch. */
    private readonly latestTurns: Map<string, rows.LatestTurn>,
    private readonly retrieved: Map<string, Retrieved>,
    private readonly source: string,
  ) {}

  private open(
    event: AgentEvent,
    number: number,
    at: string,
    fields: Partial<rows.NewTurn> = {},
  ): rows.LatestTurn {
    const turn: rows.NewTurn = {
      // Time-ordered ids: turns scored in one batch share scored_at and list in event order.
      id: timeOrderedId(),
      session_id: event.session_id,
      number,
      prompt: "",
      started_at: at,
      context_delivery: "none",
      injected_principles: [],
      injected_key_points: [],
      retrieved_principles: [],
      retrieved_key_points: [],
      constitution_version_id: null,
      feedback: null,
      ...fields,
    };
    this.newTurns.push(turn);
    const latest = {
      id: turn.id,
      session_id: turn.session_id,
      number,
      prompt: turn.prompt,
      injected_principles: turn.injected_principles,
      constitution_version_id: turn.constitution_version_id,
      tools: [],
    };
    this.latestTurns.set(event.session_id, latest);
    return latest;
  }

  /** The session's latest turn, opened (with no prompt) when tools or a stop arrive before any prompt. */
  private latest(event: AgentEvent, at: string): rows.LatestTurn {
    return this.latestTurns.get(event.session_id) ?? this.open(event, 1, at);
  }

  apply(event: AgentEvent, at: string): void {
    switch (event.type) {
      case "UserPromptSubmit": {
        const previous = this.latestTurns.get(event.session_id);
        const retrieved = this.retrieved.get(event.id);
        const context = delivery(event, this.source);
        const delivered = context === "delivered";
        // Seed 003: what this prompt says about the agent's previous turn. It reads only how
        // many prompts came before and the last one, so the earlier ones stand in as "".
        const earlier = previous
          ? [...Array<string>(previous.number - 1).fill(""), previous.prompt]
          : [];
        const feedback = analyzeUserFeedback(event.prompt, earlier, previous?.tools ?? []);
        const turn = this.open(event, (previous?.number ?? 0) + 1, at, {
          prompt: event.prompt,
          context_delivery: context,
          injected_principles: delivered ? (retrieved?.principles.map((p) => p.id) ?? []) : [],
          injected_key_points: delivered ? (retrieved?.keyPoints ?? []) : [],
          retrieved_principles: retrieved?.principles.map((p) => p.id) ?? [],
          retrieved_key_points: retrieved?.keyPoints ?? [],
          constitution_version_id: retrieved?.version ?? null,
          feedback,
        });
        this.results.push({
          id: event.id,
          status: "accepted",
          turn: turn.number,
          principles: delivered ? (retrieved?.principles ?? []) : [],
          additional_context: delivered ? (retrieved?.additional_context ?? "") : "",
        });
        return;
      }
      case "PostToolUse": {
        const turn = this.latest(event, at);
        const succeeded = determineToolSuccess(event.tool_name, event.tool_response ?? "");
        this.toolCalls.push({
          id: event.id,
          session_id: event.session_id,
          turn_number: turn.number,
          tool_use_id: event.tool_use_id ?? null,
          name: event.tool_name,
          input: capToolInput(event.tool_input),
          output: truncate(event.tool_response),
          succeeded,
          active_principles: turn.injected_principles,
          at,
        });
        turn.tools.push({ name: event.tool_name, succeeded });
        this.results.push({ id: event.id, status: "accepted", turn: turn.number });
        return;
      }
      case "Stop": {
        const turn = this.latest(event, at);
        const toolsPassed = turn.tools.every((t) => t.succeeded);
        const hasMutations = turn.tools.some((t) => t.succeeded && MUTATING.has(t.name));
        const reward = constitutionalReward(
          event.action,
          {
            response: event.response,
            tools: turn.tools.map((t) => ({
              name: t.name,
              status: t.succeeded ? "success" : "failed",
            })),
            tools_passed: toolsPassed,
            context_utilization: event.context_utilization,
          },
          hasMutations,
        );
        this.stops.set(turn.id, {
          id: turn.id,
          response: event.response,
          action: event.action,
          tools_passed: toolsPassed,
          has_mutations: hasMutations,
          context_utilization: event.context_utilization ?? null,
          stopped_at: at,
        });
        const earlier = this.scored.get(turn.id)?.resultIndex ?? [];
        this.scored.set(turn.id, {
          engine: reward.score.toDict(),
          reasoning: reward.reasoning,
          constitutionVersionId: turn.constitution_version_id,
          resultIndex: [...earlier, this.results.length],
        });
        this.results.push({ id: event.id, status: "accepted", turn: turn.number });
        return;
      }
      case "SessionEnd": {
        this.ends.set(event.session_id, { id: event.session_id, at, reason: event.reason ?? null });
        this.results.push({ id: event.id, status: "accepted" });
        return;
      }
    }
  }
}

/** When an event happened: its `at`, or now. */
const whenOf = (event: AgentEvent, now: string) =>
  event.at ? new Date(event.at).toISOString() : now;

/** One row per session of the batch: its first and last event time, its latest directory and transcript. */
function sessionTouches(events: AgentEvent[], now: string, source: string): rows.SessionTouch[] {
  const out = new Map<string, rows.SessionTouch>();
  for (const event of events) {
    const at = whenOf(event, now);
    const row = out.get(event.session_id) ?? {
      id: event.session_id,
      source,
      cwd: null,
      transcript_path: null,
      first_at: at,
      last_at: at,
    };
    if (at < row.first_at) row.first_at = at;
    if (at > row.last_at) row.last_at = at;
    row.cwd = event.cwd ?? row.cwd;
    row.transcript_path = event.transcript_path ?? row.transcript_path;
    out.set(event.session_id, row);
  }
  return [...out.values()];
}

/**
 * Applies agent events in order, in one transaction: all of a batch or none, in a
 * fixed number of statements whatever its size. An event whose id was seen before
 * is not applied again (its first result is returned), and is found before any
 * retrieval, so a replay costs no retrieval. A UserPromptSubmit replayed with
 * `context_delivered: false` after it was first recorded as delivered (the hook gave
 * up waiting for the answer) is corrected: its turn keeps no injected principles.
 */
export async function ingestEvents(
  events: AgentEvent[],
  options: { source?: string } = {},
): Promise<EventsResponse> {
  const source = options.source ?? "hook";
  const now = new Date().toISOString();
  const firstIndex = new Map<string, number>();
  events.forEach((e, i) => firstIndex.has(e.id) || firstIndex.set(e.id, i));
  // Ids seen before are found first only where it saves work: a prompt's retrieval.
  const promptIds = events.flatMap((e, i) =>
    e.type === "UserPromptSubmit" && firstIndex.get(e.id) === i ? [e.id] : [],
  );
  const seenBefore = promptIds.length ? await rows.seenEvents(db(), promptIds) : new Map();
  const prompts = events.flatMap((event, i) =>
    event.type === "UserPromptSubmit" && firstIndex.get(event.id) === i && !seenBefore.has(event.id)
      ? [{ event, delivered: delivery(event, source) === "delivered" }]
      : [],
  );
  const [weights, retrieved] = await Promise.all([weightSets.current(), retrieveAll(prompts)]);

  const { results, endedSessions } = await db().$transaction(
    async (tx) => {
      await rows.upsertSessions(tx, sessionTouches(events, now, source));
      // Looked up again under the sessions' locks: a concurrent batch may have recorded some since.
      const seen = await rows.seenEvents(tx, [...firstIndex.keys()]);
      const fresh = events.filter((e, i) => firstIndex.get(e.id) === i && !seen.has(e.id));
      const plan = new BatchPlan(
        await rows.latestTurns(tx, [...new Set(fresh.map((e) => e.session_id))]),
        retrieved,
        source,
      );
      for (const event of fresh) plan.apply(event, whenOf(event, now));

      const overrides = await rows.overridesOf(tx, [...plan.scored.keys()]);
      const scores = [...plan.scored.entries()].map(([turnId, s]) => {
        const columns = scoreColumns({
          engine: s.engine,
          overrides: overrides.get(turnId) ?? {},
          reasoning: s.reasoning,
          weights,
          constitutionVersionId: s.constitutionVersionId,
        });
        for (const i of s.resultIndex)
          plan.results[i]!.score = {
            weighted_total: columns.weightedTotal,
            normalized_total: columns.normalizedTotal,
          };
        return toScoreRow(turnId, columns);
      });
      // A stop on a turn opened in this batch goes into its insert; the rest update stored turns.
      const opened = new Map(plan.newTurns.map((t) => [t.id, t]));
      await rows.insertTurns(
        tx,
        plan.newTurns.map((t) => ({ ...t, ...stopFields(plan.stops.get(t.id)) })),
      );
      await rows.stopTurns(
        tx,
        [...plan.stops.values()].filter((s) => !opened.has(s.id)),
      );
      await rows.insertToolCalls(tx, plan.toolCalls);
      await rows.upsertScores(tx, scores);
      await rows.endSessions(tx, [...plan.ends.values()]);

      const undelivered = events.filter(
        (e, i): e is UserPrompt =>
          e.type === "UserPromptSubmit" &&
          e.context_delivered === false &&
          firstIndex.get(e.id) === i &&
          seen.has(e.id),
      );
      const corrected = await rows.markUndelivered(
        tx,
        undelivered.flatMap((e) => {
          const turn = (seen.get(e.id)?.result as EventResult | null)?.turn;
          return turn ? [{ session_id: e.session_id, number: turn }] : [];
        }),
      );
      // A corrected session that was credited before is credited again without those principles.
      const recredit = corrected.length
        ? await tx.sessionOutcome.findMany({
            where: { sessionId: { in: corrected } },
            select: { sessionId: true },
          })
        : [];
      const outcomes = await creditSessions(tx, [
        ...new Set([...plan.ends.keys(), ...recredit.map((r) => r.sessionId)]),
      ]);
      fresh.forEach((event, i) => {
        const outcome = event.type === "SessionEnd" ? outcomes.get(event.session_id) : undefined;
        if (outcome) plan.results[i]!.outcome = { status: outcome.status, score: outcome.score };
      });
      await rows.recordEvents(
        tx,
        fresh.map((e, i) => ({
          id: e.id,
          session_id: e.session_id,
          type: e.type,
          result: plan.results[i],
        })),
      );
      if (env().CHARTER_REFLECT_ON_SESSION_END)
        await rows.queueReflections(tx, [...plan.ends.keys()]);

      const byId = new Map(plan.results.map((r) => [r.id, r]));
      const all = events.map((event, i): EventResult => {
        if (firstIndex.get(event.id) === i && byId.has(event.id)) return byId.get(event.id)!;
        const stored = (seen.get(event.id)?.result as EventResult | null) ??
          byId.get(event.id) ?? { id: event.id };
        return { ...stored, status: "duplicate" };
      });
      return { results: all, endedSessions: [...plan.ends.keys()] };
    },
    { timeout: 120_000, maxWait: 10_000 },
  );
  if (endedSessions.length && env().CHARTER_REFLECT_ON_SESSION_END)
    void import("./reflect").then(({ wakeReflectionWorker }) => wakeReflectionWorker());
  return {
    accepted: results.filter((r) => r.status === "accepted").length,
    duplicates: results.filter((r) => r.status === "duplicate").length,
    results,
  };
}

function stopFields(stop: rows.TurnStop | undefined) {
  return stop
    ? {
        response: stop.response,
        action: stop.action,
        tools_passed: stop.tools_passed,
        has_mutations: stop.has_mutations,
        context_utilization: stop.context_utilization,
        stopped_at: stop.stopped_at,
      }
    : {};
}

function toScoreRow(turnId: string, c: ReturnType<typeof scoreColumns>): rows.ScoreRow {
  return {
    turn_id: turnId,
    engine_scores: c.engineScores,
    tasteful: c.tasteful,
    curated: c.curated,
    ethical: c.ethical,
    joy_inducing: c.joyInducing,
    composable: c.composable,
    heterarchical: c.heterarchical,
    generative: c.generative,
    weighted_total: c.weightedTotal,
    max_total: c.maxTotal,
    normalized_total: c.normalizedTotal,
    reasoning: c.reasoning,
    weight_set_id: c.weightSetId,
    constitution_version_id: c.constitutionVersionId,
  };
}
