import type { ContextDelivery } from "@/lib/schemas/statuses";
import { scores, type ScoreColumns } from "./scores";
import { jsonParameter as json } from "./sql-json";
import type { Sql } from "./ingest-sql";

/* The writes of event ingestion, each over a whole group of events (see lib/db/ingest.ts). */

export type NewTurn = {
  id: string;
  session_id: string;
  number: number;
  prompt: string;
  started_at: string;
  context_delivery: ContextDelivery;
  injected_principles: string[];
  injected_key_points: string[];
  retrieved_principles: string[];
  retrieved_key_points: string[];
  constitution_version_id: number | null;
  feedback: unknown;
};

export type TurnStop = {
  id: string;
  response: string;
  action: string;
  tools_passed: boolean;
  has_mutations: boolean;
  context_utilization: number | null;
  stopped_at: string;
};

export type NewToolCall = {
  id: string;
  session_id: string;
  turn_number: number;
  tool_use_id: string | null;
  name: string;
  input: unknown;
  output: string | null;
  succeeded: boolean;
  active_principles: string[];
  at: string;
};

export type EventResultRow = { id: string; result: unknown };

/** Everything a group writes once it is planned; a turn stopped in the same group carries its stop fields. */
export type PlanWrites = {
  turns: (NewTurn & Partial<Omit<TurnStop, "id">>)[];
  stops: TurnStop[];
  toolCalls: NewToolCall[];
  ends: { id: string; at: string; reason: string | null }[];
  scored: { turnId: string; columns: ScoreColumns }[];
  results: EventResultRow[];
};

/**
 * A group's writes in one statement: new turns, stops of stored turns, tool calls,
 * ended sessions, turn scores and the claimed events' results. Each part touches rows
 * no other part touches (new turns and stored turns differ; events were claimed by
 * this transaction), as one statement's data-modifying parts must; a score's turn,
 * inserted by another part, exists when the statement's foreign keys are checked.
 */
async function writePlan(sql: Sql, plan: PlanWrites): Promise<void> {
  const rows =
    plan.turns.length +
    plan.stops.length +
    plan.toolCalls.length +
    plan.ends.length +
    plan.scored.length +
    plan.results.length;
  if (rows === 0) return;
  await sql.query(
    `WITH new_turns AS (
       INSERT INTO turn (id, session_id, number, prompt, started_at, context_delivery, injected_principles, injected_key_points, retrieved_principles, retrieved_key_points, constitution_version_id, feedback,
                         response, action, tools_passed, has_mutations, context_utilization, stopped_at)
       SELECT id, session_id, number, prompt, started_at, context_delivery, injected_principles, injected_key_points, retrieved_principles, retrieved_key_points, constitution_version_id, feedback,
              response, COALESCE(action, 'send_message'), tools_passed, has_mutations, context_utilization, stopped_at
       FROM jsonb_to_recordset($1::jsonb) AS x(id text, session_id text, number int, prompt text, started_at timestamptz, context_delivery text, injected_principles text[], injected_key_points text[],
         retrieved_principles text[], retrieved_key_points text[], constitution_version_id int, feedback jsonb,
         response text, action text, tools_passed boolean, has_mutations boolean, context_utilization float8, stopped_at timestamptz)
       RETURNING 1
     ), stopped AS (
       UPDATE turn SET response = x.response, action = x.action, tools_passed = x.tools_passed, has_mutations = x.has_mutations, context_utilization = x.context_utilization, stopped_at = x.stopped_at
       FROM jsonb_to_recordset($2::jsonb) AS x(id text, response text, action text, tools_passed boolean, has_mutations boolean, context_utilization float8, stopped_at timestamptz)
       WHERE turn.id = x.id
       RETURNING 1
     ), calls AS (
       INSERT INTO tool_call (id, session_id, turn_number, tool_use_id, name, input, output, succeeded, active_principles, at)
       SELECT id, session_id, turn_number, tool_use_id, name, input, output, succeeded, active_principles, at
       FROM jsonb_to_recordset($3::jsonb) AS x(id text, session_id text, turn_number int, tool_use_id text, name text, input jsonb, output text, succeeded boolean, active_principles text[], at timestamptz)
       RETURNING 1
     ), ended AS (
       UPDATE agent_session SET ended_at = x.at, end_reason = x.reason
       FROM jsonb_to_recordset($4::jsonb) AS x(id text, at timestamptz, reason text)
       WHERE agent_session.id = x.id
       RETURNING 1
     ), recorded AS (
       UPDATE agent_event SET result = x.result
       FROM jsonb_to_recordset($5::jsonb) AS x(id text, result jsonb)
       WHERE agent_event.id = x.id
       RETURNING 1
     ), scored AS (
       ${scores.upsertManySql("$6")}
       RETURNING 1
     )
     SELECT 1`,
    [
      json(plan.turns),
      json(plan.stops),
      json(plan.toolCalls),
      json(plan.ends),
      json(plan.results),
      json(plan.scored.map((s) => scores.sqlRow(s.turnId, s.columns))),
    ],
  );
}

/** Sets the results of claimed events whose result was known only after the writes (a SessionEnd's outcome). */
async function recordResults(sql: Sql, rows: EventResultRow[]): Promise<void> {
  if (rows.length === 0) return;
  await sql.query(
    `UPDATE agent_event SET result = x.result FROM jsonb_to_recordset($1::jsonb) AS x(id text, result jsonb) WHERE agent_event.id = x.id`,
    [json(rows)],
  );
}

/**
 * Turns whose context never reached the agent (their prompt was delivered, then
 * replayed from a spool as undelivered): their injected principles and key points
 * become "would have injected", and so do their tool calls' active principles. The
 * turns are named by the session and number the stored event recorded. Returns the
 * sessions that changed.
 */
async function markUndelivered(
  sql: Sql,
  turns: { session_id: string; number: number }[],
): Promise<string[]> {
  if (turns.length === 0) return [];
  const changed = await sql.query<{ session_id: string; number: number }>(
    `UPDATE turn SET context_delivery = 'spooled', injected_principles = '{}', injected_key_points = '{}'
     FROM jsonb_to_recordset($1::jsonb) AS x(session_id text, number int)
     WHERE turn.session_id = x.session_id AND turn.number = x.number AND turn.context_delivery = 'delivered'
     RETURNING turn.session_id, turn.number`,
    [json(turns)],
  );
  if (changed.length === 0) return [];
  await sql.query(
    `UPDATE tool_call SET active_principles = '{}' FROM jsonb_to_recordset($1::jsonb) AS x(session_id text, number int) WHERE tool_call.session_id = x.session_id AND tool_call.turn_number = x.number`,
    [json(changed)],
  );
  return [...new Set(changed.map((c) => c.session_id))];
}

export { writePlan, recordResults, markUndelivered };
