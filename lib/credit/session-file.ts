import { issueLines } from "@/lib/errors";
import { sessionStateSchema, type SessionState } from "./schema";

/** Thrown for a session state that cannot be credited right; each problem names its field. */
export class SessionStateError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid session state: ${problems.join("; ")}`);
    this.name = "SessionStateError";
  }
}

/**
 * Top-level fields evolver-harness wrote over its history that credit does not read:
 * TraceLogger's LogSession (803e4fd to 9f0c088: `id`, `taskSummary`, ...) and
 * SessionStart's `exploratoryPrinciples` and `contextTags` (f83c1d0 on).
 */
export const UNREAD_SESSION_FIELDS = [
  "id",
  "taskSummary",
  "problemDescription",
  "intermediateThoughts",
  "modelUsed",
  "agentId",
  "exploratoryPrinciples",
  "contextTags",
] as const;
/** Every field a tool call ever had: the credit-assignment spec's, and TraceLogger's `duration_ms` and `error`. */
export const TOOL_CALL_FIELDS = [
  "tool",
  "input",
  "output",
  "timestamp",
  "succeeded",
  "active_principles",
  "prompt_index",
  "duration_ms",
  "error",
] as const;
const STATE_FIELDS: readonly string[] = [
  ...Object.keys(sessionStateSchema.shape),
  ...UNREAD_SESSION_FIELDS,
];
const CALL_FIELDS: readonly string[] = TOOL_CALL_FIELDS;
/** Lists that evolver-harness reads as `state.x || []`: null is the empty list. */
const LISTS = ["prompts", "injectedPrinciples", "toolCalls", "userFeedback"] as const;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A tool call as credit reads it: the older shapes' fields mapped, with a warning for each dubious one. */
function readToolCall(raw: unknown, index: number, warnings: string[]): unknown {
  if (!isRecord(raw)) return raw;
  const call: Record<string, unknown> = { ...raw };
  const where = `toolCalls.${index}`;
  // TraceLogger (803e4fd to 9f0c088) marked a failed call with `error` and no `succeeded`.
  if (
    (call.succeeded === undefined || call.succeeded === null) &&
    call.error !== undefined &&
    call.error !== null &&
    call.error !== false
  )
    call.succeeded = false;
  // Before 5958999 `input` was typed unknown; the credit-assignment spec reads only input?.file_path and input?.path.
  if (!isRecord(call.input)) call.input = {};
  if (typeof call.tool !== "string" || call.tool === "") {
    warnings.push(
      `${where}: ${call.tool === undefined || call.tool === null || call.tool === "" ? "no tool name" : "a tool name that is not a string"}; counted as a call that is not an edit`,
    );
    call.tool = "";
  }
  const unknown = Object.keys(call).filter((k) => !CALL_FIELDS.includes(k));
  if (unknown.length)
    warnings.push(
      `${where}: unknown field${unknown.length === 1 ? "" : "s"} ${unknown.join(", ")}; ignored`,
    );
  return call;
}

/**
 * Reads an evolver-harness session file in any of its shapes, or the credit-assignment spec's
 * SessionState, as the hooks would have read it: missing lists are empty (null
 * too), a tool call without `succeeded` succeeded, TraceLogger's older names are
 * mapped (`id` for `sessionId`, a numeric `startTime`, `error` on a failed call).
 * Fields credit does not read pass unchecked; unknown ones give a warning. A value
 * that would make the credit wrong (a sentiment outside 0..1, `succeeded: "false"`,
 * lists that are not lists) throws SessionStateError naming the field.
 */
export function readSessionState(raw: unknown): { state: SessionState; warnings: string[] } {
  if (!isRecord(raw))
    throw new SessionStateError([
      `(root): must be an object (a SessionState), not ${raw === null ? "null" : Array.isArray(raw) ? "a list" : `a ${typeof raw}`}`,
    ]);
  const warnings: string[] = [];
  const state: Record<string, unknown> = { ...raw };
  for (const key of LISTS) if (state[key] === null) delete state[key];
  if (typeof state.sessionId !== "string" || state.sessionId === "") {
    if (typeof state.id === "string" && state.id !== "") state.sessionId = state.id;
    else {
      warnings.push(
        'no sessionId: credited as session "unknown", as evolver-harness\'s SessionEnd does',
      );
      state.sessionId = "unknown";
    }
  }
  if (typeof state.startTime === "number") {
    const date = new Date(state.startTime);
    state.startTime = Number.isNaN(date.getTime()) ? "" : date.toISOString();
  } else if (state.startTime !== undefined && typeof state.startTime !== "string") {
    warnings.push("startTime: neither a date string nor a number; ignored");
    delete state.startTime;
  }
  if (Array.isArray(state.toolCalls))
    state.toolCalls = state.toolCalls.map((call, i) => readToolCall(call, i, warnings));
  const unknown = Object.keys(raw).filter((k) => !STATE_FIELDS.includes(k));
  if (unknown.length)
    warnings.push(`unknown field${unknown.length === 1 ? "" : "s"} ${unknown.join(", ")}; ignored`);

  const parsed = sessionStateSchema.safeParse(state);
  if (!parsed.success) throw new SessionStateError(issueLines(parsed.error.issues));
  return { state: parsed.data, warnings };
}
