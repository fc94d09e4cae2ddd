import { z } from "zod";
import { AGENT_SLUG, KNOWN_AGENTS } from "./agents";
import { inJson, inText, MAX_JSON_DEPTH, TEXT_RULE } from "./text";

/**
 * Agent events, as Claude Code hooks report them and as `POST /api/v1/events` takes
 * them. Every event carries an `id`: the server ignores an id it has seen, so a
 * replayed spool never counts twice. The `.describe()` texts feed the OpenAPI document.
 *
 * Parsing is also the edge's normalization: every string comes out under the text
 * rule of ./text.ts, `at` in canonical UTC form within EVENT_AT bounds, and JSON
 * values within MAX_JSON_DEPTH. Whatever parses here, PostgreSQL can store.
 */
export const EVENT_TYPES = [
  "SessionStart",
  "UserPromptSubmit",
  "PostToolUse",
  "Stop",
  "SessionEnd",
] as const;
export const MAX_BATCH = 1000;
/** Tool outputs are kept up to this many characters. */
export const MAX_TOOL_OUTPUT = 20_000;

/** The earliest `at` taken, and how far past the server's clock an `at` may be (agents' clocks drift; a year-0 or year-9999 `at` is a bug). */
export const EVENT_AT_EARLIEST = "2000-01-01T00:00:00.000Z";
export const EVENT_AT_MAX_AHEAD_MS = 24 * 60 * 60 * 1000;

/** Whether an instant is a plausible event time, given the server's clock now. */
export function eventAtInBounds(ms: number, now = Date.now()): boolean {
  return ms >= Date.parse(EVENT_AT_EARLIEST) && ms <= now + EVENT_AT_MAX_AHEAD_MS;
}

/** Both checks abort, so the canonical form is only ever computed for a date in bounds (NaN is in no bounds). */
const eventAt = z.iso
  .datetime({ offset: true, abort: true })
  .refine((text) => eventAtInBounds(Date.parse(text)), {
    abort: true,
    message: "must be from 2000-01-01T00:00:00Z to one day after the server's clock",
  })
  .overwrite((text) => new Date(text).toISOString());

const base = {
  id: inText()
    .min(8, "must be at least 8 characters")
    .max(200)
    .describe("Unique id of this event; repeats are ignored."),
  session_id: inText().min(1).max(200).describe("The agent session (Claude Code's session_id)."),
  at: eventAt
    .optional()
    .describe(
      "When it happened (ISO 8601 with an offset), from 2000-01-01T00:00:00Z to one day after the server's clock; stored in UTC. Defaults to when it arrived.",
    ),
  cwd: inText().max(4096).optional().describe("The agent's working directory."),
  transcript_path: inText()
    .max(4096)
    .optional()
    .describe("Path of the session's transcript file on the agent's machine."),
  agent: z
    .string()
    .max(64)
    .regex(AGENT_SLUG, "must be a lower-case name of letters, digits, '.', '_' or '-'")
    .optional()
    .describe(
      `The agent that reports the session: ${KNOWN_AGENTS.map((a) => `\`${a}\``).join(", ")}, or another lower-case name. The session keeps the latest one sent.`,
    ),
  agent_version: inText()
    .min(1)
    .max(100)
    .optional()
    .describe("The agent's version, where it tells it (Cursor's cursor_version, say)."),
};

export const sessionStartSchema = z.strictObject({
  ...base,
  type: z.literal("SessionStart"),
  source: inText()
    .max(100)
    .optional()
    .describe("Why the session started, in the agent's words: startup, resume, clear, compact."),
  model: inText().max(200).optional().describe("The model the agent runs, where it says."),
});

export const userPromptSubmitSchema = z.strictObject({
  ...base,
  type: z.literal("UserPromptSubmit"),
  prompt: inText().max(200_000).describe("The prompt the user submitted."),
  context_delivered: z
    .boolean()
    .optional()
    .describe(
      "false when the hook could not pass the server's answer to the agent (the event was spooled and is replayed, or imported): the turn then records no injected principles or key points, only what would have been injected. Absent means the answer is the reply to this request.",
    ),
  agent_takes_context: z
    .boolean()
    .optional()
    .describe(
      "false when the agent cannot add context to a prompt at all (Cursor's beforeSubmitPrompt, an OpenTelemetry trace): the turn records `unsupported` and nothing injected, only what would have been. Such agents get the hard constraints at SessionStart instead.",
    ),
});

export const postToolUseSchema = z.strictObject({
  ...base,
  type: z.literal("PostToolUse"),
  tool_name: inText().min(1).max(200).describe("Name of the tool, e.g. Bash, Edit."),
  tool_use_id: inText().max(200).optional().describe("Claude Code's id of this tool call."),
  tool_input: inJson()
    .optional()
    .describe(`The tool's input: any JSON nested at most ${MAX_JSON_DEPTH} levels deep.`),
  tool_response: inJson()
    .optional()
    .describe(`The tool's output: any JSON nested at most ${MAX_JSON_DEPTH} levels deep.`),
});

export const stopSchema = z.strictObject({
  ...base,
  type: z.literal("Stop"),
  response: inText().max(500_000).default("").describe("The agent's last message of the turn."),
  context_utilization: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe("Share of the context window in use (0..1)."),
  action: inText()
    .max(100)
    .default("send_message")
    .describe("What the turn did; scored as the turn-score spec's action."),
});

export const sessionEndSchema = z.strictObject({
  ...base,
  type: z.literal("SessionEnd"),
  reason: inText().max(200).optional().describe("Why the session ended (Claude Code's reason)."),
});

export const agentEventSchema = z.discriminatedUnion("type", [
  sessionStartSchema,
  userPromptSubmitSchema,
  postToolUseSchema,
  stopSchema,
  sessionEndSchema,
]);
export type AgentEvent = z.output<typeof agentEventSchema>;
export type AgentEventInput = z.input<typeof agentEventSchema>;

/** `{events: [...]}` with 1 to MAX_BATCH events, applied all or none. */
export const eventsBatchSchema = z.strictObject({
  events: z
    .array(agentEventSchema)
    .min(1, "must hold at least one event")
    .max(MAX_BATCH, `must hold at most ${MAX_BATCH} events`),
});

/** One event, or `{events: [...]}` with up to MAX_BATCH events, applied all or none. */
export const eventsRequestSchema = z
  .union([agentEventSchema, eventsBatchSchema])
  .describe(
    `In every string, object keys inside tool_input and tool_response included, ${TEXT_RULE} (PostgreSQL cannot store them). A value nested deeper than ${MAX_JSON_DEPTH} levels, or an \`at\` out of bounds, is refused with 422 naming the field.`,
  );
export type EventsRequest = z.output<typeof eventsRequestSchema>;

/**
 * Parses a request body as eventsRequestSchema does, but with the one schema the body
 * means (a batch when it is an object with `events`), so that an error names the
 * field at fault: a union that fails every option reports only "Invalid input".
 */
export function parseEventsRequest(raw: unknown): z.ZodSafeParseResult<EventsRequest> {
  const batch = typeof raw === "object" && raw !== null && !Array.isArray(raw) && "events" in raw;
  return batch ? eventsBatchSchema.safeParse(raw) : agentEventSchema.safeParse(raw);
}

export const retrievedPrincipleSchema = z.object({
  id: z.string(),
  title: z.string(),
  level: z.enum(["hard", "soft"]),
  priority: z.number(),
  confidence: z.number(),
});

/** What the server answers for one event. For UserPromptSubmit it carries the context to inject. */
export const eventResultSchema = z.object({
  id: z.string(),
  status: z.enum(["accepted", "duplicate"]),
  turn: z.number().int().optional().describe("The turn number the event belongs to."),
  principles: z
    .array(retrievedPrincipleSchema)
    .optional()
    .describe("UserPromptSubmit: principles retrieved for the prompt."),
  additional_context: z
    .string()
    .optional()
    .describe(
      "UserPromptSubmit: the text to add to the agent's context. SessionStart: the constitution's hard constraints and the playbook, for agents that take context only at the start of a session.",
    ),
  score: z
    .object({ weighted_total: z.number(), normalized_total: z.number() })
    .optional()
    .describe("Stop: the turn's score."),
  outcome: z
    .object({ status: z.enum(["success", "partial", "failure"]), score: z.number() })
    .optional()
    .describe("SessionEnd: the session's outcome (absent when it was credited before)."),
});
export type EventResult = z.infer<typeof eventResultSchema>;

export const eventsResponseSchema = z.object({
  accepted: z.number().int(),
  duplicates: z.number().int(),
  results: z.array(eventResultSchema),
});
export type EventsResponse = z.infer<typeof eventsResponseSchema>;

/**
 * Tools that write files, whose success counts as a mutation (has_mutations), by each agent's
 * name for them. Claude Code: Edit, MultiEdit, Write, NotebookEdit. Codex: apply_patch, its one
 * file-editing tool (https://developers.openai.com/codex/hooks). Gemini CLI: write_file and
 * replace (https://geminicli.com/docs/reference/tools). Cursor: Write
 * (https://cursor.com/docs/agent/hooks), as Claude Code's.
 */
export const MUTATING_TOOLS = [
  "Edit",
  "MultiEdit",
  "Write",
  "NotebookEdit",
  "apply_patch",
  "write_file",
  "replace",
] as const;
