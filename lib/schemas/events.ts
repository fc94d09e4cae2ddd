import { z } from "zod";

/**
 * Agent events, as Claude Code hooks report them and as `POST /api/v1/events` takes
 * them. Every event carries an `id`: the server ignores an id it has seen, so a
 * replayed spool never counts twice. The `.describe()` texts feed the OpenAPI document.
 */
export const EVENT_TYPES = ["UserPromptSubmit", "PostToolUse", "Stop", "SessionEnd"] as const;
export const MAX_BATCH = 1000;
/** Tool outputs are kept up to this many characters. */
export const MAX_TOOL_OUTPUT = 20_000;

const base = {
  id: z.string().min(8, "must be at least 8 characters").max(200).describe("Unique id of this event; repeats are ignored."),
  session_id: z.string().min(1).max(200).describe("The agent session (Claude Code's session_id)."),
  at: z.iso.datetime({ offset: true }).optional().describe("When it happened (ISO 8601); defaults to when it arrived."),
  cwd: z.string().max(4096).optional().describe("The agent's working directory."),
  transcript_path: z.string().max(4096).optional().describe("Path of the session's transcript file on the agent's machine."),
};

export const userPromptSubmitSchema = z.strictObject({
  ...base,
  type: z.literal("UserPromptSubmit"),
  prompt: z.string().max(200_000).describe("The prompt the user submitted."),
  context_delivered: z
    .boolean()
    .optional()
    .describe(
      "false when the hook could not pass the server's answer to the agent (the event was spooled and is replayed, or imported): the turn then records no injected principles or key points, only what would have been injected. Absent means the answer is the reply to this request.",
    ),
});

export const postToolUseSchema = z.strictObject({
  ...base,
  type: z.literal("PostToolUse"),
  tool_name: z.string().min(1).max(200).describe("Name of the tool, e.g. Bash, Edit."),
  tool_use_id: z.string().max(200).optional().describe("Claude Code's id of this tool call."),
  tool_input: z.unknown().optional().describe("The tool's input."),
  tool_response: z.unknown().optional().describe("The tool's output."),
});

export const stopSchema = z.strictObject({
  ...base,
  type: z.literal("Stop"),
  response: z.string().max(500_000).default("").describe("The agent's last message of the turn."),
  context_utilization: z.number().min(0).max(1).optional().describe("Share of the context window in use (0..1)."),
  action: z.string().max(100).default("send_message").describe("What the turn did; scored as seed 000's action."),
});

export const sessionEndSchema = z.strictObject({
  ...base,
  type: z.literal("SessionEnd"),
  reason: z.string().max(200).optional().describe("Why the session ended (Claude Code's reason)."),
});

export const agentEventSchema = z.discriminatedUnion("type", [userPromptSubmitSchema, postToolUseSchema, stopSchema, sessionEndSchema]);
export type AgentEvent = z.output<typeof agentEventSchema>;
export type AgentEventInput = z.input<typeof agentEventSchema>;

/** One event, or `{events: [...]}` with up to MAX_BATCH events, applied all or none. */
export const eventsRequestSchema = z.union([
  agentEventSchema,
  z.strictObject({ events: z.array(agentEventSchema).min(1, "must hold at least one event").max(MAX_BATCH, `must hold at most ${MAX_BATCH} events`) }),
]);

export const retrievedPrincipleSchema = z.object({ id: z.string(), title: z.string(), level: z.enum(["hard", "soft"]), priority: z.number(), confidence: z.number() });

/** What the server answers for one event. For UserPromptSubmit it carries the context to inject. */
export const eventResultSchema = z.object({
  id: z.string(),
  status: z.enum(["accepted", "duplicate"]),
  turn: z.number().int().optional().describe("The turn number the event belongs to."),
  principles: z.array(retrievedPrincipleSchema).optional().describe("UserPromptSubmit: principles retrieved for the prompt."),
  additional_context: z.string().optional().describe("UserPromptSubmit: the text to add to the agent's context."),
  score: z.object({ weighted_total: z.number(), normalized_total: z.number() }).optional().describe("Stop: the turn's score."),
  outcome: z.object({ status: z.enum(["success", "partial", "failure"]), score: z.number() }).optional().describe("SessionEnd: the session's outcome (absent when it was credited before)."),
});
export type EventResult = z.infer<typeof eventResultSchema>;

export const eventsResponseSchema = z.object({ accepted: z.number().int(), duplicates: z.number().int(), results: z.array(eventResultSchema) });
export type EventsResponse = z.infer<typeof eventsResponseSchema>;

/** Claude Code tools whose success counts as a mutation (has_mutations). */
export const MUTATING_TOOLS = ["Edit", "MultiEdit", "Write", "NotebookEdit"] as const;
