import { v7 as timeOrderedId } from "uuid";
import { analyzeUserFeedback } from "@/lib/credit/feedback";
import { determineToolSuccess } from "@/lib/credit/tool-success";
import type { EventClaim, LatestTurn, NewToolCall, NewTurn, TurnStop } from "@/lib/db/ingest";
import { constitutionalReward, type ScoreDict } from "@/lib/reward";
import { MUTATING_TOOLS, type AgentEvent, type EventResult } from "@/lib/schemas/events";
import type { ContextDelivery } from "@/lib/schemas/statuses";
import { capToolInput, truncate } from "./tool-input";

/** What retrieval chose for one prompt, under which constitution version, and the text that names them. */
export type Retrieved = {
  principles: NonNullable<EventResult["principles"]>;
  version: number;
  context: string;
};
/** The playbook's most trusted key points as the group's transaction read them. */
export type Playbook = { names: string[]; text: string };
export type UserPrompt = Extract<AgentEvent, { type: "UserPromptSubmit" }>;

const MUTATING = new Set<string>(MUTATING_TOOLS);

/** Whether the agent was given what the server answers for this prompt. */
export function delivery(event: UserPrompt, source: string): ContextDelivery {
  if (source === "import") return "imported";
  if (event.agent_takes_context === false) return "unsupported";
  return event.context_delivered === false ? "spooled" : "delivered";
}

/** The context an agent is given for a prompt: the principles, then the playbook. */
function contextFor(retrieved: Retrieved, playbook: Playbook): string {
  return [
    retrieved.context,
    playbook.text
      ? `Playbook: lessons from earlier sessions, with how often each helped or harmed (weigh them by that):\n${playbook.text}`
      : "",
  ]
    .filter(Boolean)
    .join("\n\n");
}

/**
 * Everything a group writes, built in memory from the sessions' latest turns: the
 * events are applied in order exactly as one-at-a-time ingestion would apply them.
 */
export class BatchPlan {
  readonly newTurns: NewTurn[] = [];
  readonly stops = new Map<string, TurnStop>();
  readonly toolCalls: NewToolCall[] = [];
  readonly scored = new Map<
    string,
    {
      engine: ScoreDict;
      reasoning: string;
      constitutionVersionId: number | null;
      overrides: LatestTurn["overrides"];
      /** The results of the Stop events that scored this turn: each carries the score. */
      results: EventResult[];
    }
  >();
  readonly ends = new Map<string, { id: string; at: string; reason: string | null }>();
  /** Each applied event's result, by event id (a group applies an id once). */
  readonly results = new Map<string, EventResult>();

  constructor(
    /** Each session's latest turn, stored or opened by this batch. */
    private readonly latestTurns: Map<string, LatestTurn>,
    private readonly retrieved: Map<string, Retrieved>,
    private readonly playbook: Playbook,
    private readonly source: string,
  ) {}

  private open(
    event: AgentEvent,
    number: number,
    at: string,
    fields: Partial<NewTurn> = {},
  ): LatestTurn {
    const turn: NewTurn = {
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
      overrides: {},
    };
    this.latestTurns.set(event.session_id, latest);
    return latest;
  }

  /** The session's latest turn, opened (with no prompt) when tools or a stop arrive before any prompt. */
  private latest(event: AgentEvent, at: string): LatestTurn {
    return this.latestTurns.get(event.session_id) ?? this.open(event, 1, at);
  }

  apply(event: AgentEvent, at: string): void {
    switch (event.type) {
      case "SessionStart": {
        // Opens no turn: the session row (its agent, where it runs) is the claim's. The answer is
        // the hard constraints and the playbook, for agents that take context only here.
        const retrieved = this.retrieved.get(event.id);
        this.result({
          id: event.id,
          status: "accepted",
          principles: retrieved?.principles ?? [],
          additional_context:
            retrieved && this.source !== "import" ? contextFor(retrieved, this.playbook) : "",
        });
        return;
      }
      case "UserPromptSubmit": {
        const previous = this.latestTurns.get(event.session_id);
        const retrieved = this.retrieved.get(event.id);
        const context = delivery(event, this.source);
        const delivered = context === "delivered";
        // The credit-assignment spec: what this prompt says about the agent's previous turn. It reads only how
        // many prompts came before and the last one, so the earlier ones stand in as "".
        const earlier = previous
          ? [...Array<string>(previous.number - 1).fill(""), previous.prompt]
          : [];
        const feedback = analyzeUserFeedback(event.prompt, earlier, previous?.tools ?? []);
        const keyPoints = retrieved ? this.playbook.names : [];
        const turn = this.open(event, (previous?.number ?? 0) + 1, at, {
          prompt: event.prompt,
          context_delivery: context,
          injected_principles: delivered ? (retrieved?.principles.map((p) => p.id) ?? []) : [],
          injected_key_points: delivered ? keyPoints : [],
          retrieved_principles: retrieved?.principles.map((p) => p.id) ?? [],
          retrieved_key_points: keyPoints,
          constitution_version_id: retrieved?.version ?? null,
          feedback,
        });
        this.result({
          id: event.id,
          status: "accepted",
          turn: turn.number,
          principles: delivered ? (retrieved?.principles ?? []) : [],
          additional_context: delivered && retrieved ? contextFor(retrieved, this.playbook) : "",
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
        this.result({ id: event.id, status: "accepted", turn: turn.number });
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
        const result = this.result({ id: event.id, status: "accepted", turn: turn.number });
        this.scored.set(turn.id, {
          engine: reward.score.toDict(),
          reasoning: reward.reasoning,
          constitutionVersionId: turn.constitution_version_id,
          overrides: turn.overrides,
          results: [...(this.scored.get(turn.id)?.results ?? []), result],
        });
        return;
      }
      case "SessionEnd": {
        this.ends.set(event.session_id, { id: event.session_id, at, reason: event.reason ?? null });
        this.result({ id: event.id, status: "accepted" });
        return;
      }
    }
  }

  private result(result: EventResult): EventResult {
    this.results.set(result.id, result);
    return result;
  }
}

/** When an event happened: its `at`, or now. */
export const whenOf = (event: AgentEvent, now: string) =>
  event.at ? new Date(event.at).toISOString() : now;

/** What the claim needs of an event: its id, session, type and time, and where the session runs. */
export function claimOf(event: AgentEvent, now: string): EventClaim {
  return {
    id: event.id,
    session_id: event.session_id,
    type: event.type,
    at: whenOf(event, now),
    cwd: event.cwd ?? null,
    transcript_path: event.transcript_path ?? null,
    agent: event.agent ?? null,
    agent_version: event.agent_version ?? null,
  };
}

export function stopFields(stop: TurnStop | undefined) {
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
