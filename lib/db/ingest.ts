import { eventResultSchema, type EventResult } from "@/lib/schemas/events";
import type { ContextDelivery } from "@/lib/schemas/statuses";
import { db } from "./client";
import { parseColumn } from "./json-column";
import { jsonParameter as json } from "./sql-json";
import type { Tx } from "./transaction";

/*
 * The set-based statements behind event ingestion: each reads or writes every row
 * of a batch at once, whatever the batch holds, passing the rows as one JSON
 * parameter (`jsonb_to_recordset`). lib/services/ingest.ts decides what to write.
 */

export type SessionTouch = {
  id: string;
  source: string;
  cwd: string | null;
  transcript_path: string | null;
  first_at: string;
  last_at: string;
};

/**
 * Creates or touches every session of a batch in one statement, in id order so that
 * two batches never wait on each other's rows in opposite orders. The row locks it
 * takes keep a session's events applied one batch at a time.
 */
async function upsertSessions(tx: Tx, sessions: SessionTouch[]): Promise<void> {
  const rows = [...sessions].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  await tx.$executeRawUnsafe(
    `INSERT INTO agent_session (id, source, cwd, transcript_path, started_at, last_event_at)
     SELECT id, source, cwd, transcript_path, first_at, last_at
     FROM jsonb_to_recordset($1::jsonb) AS x(id text, source text, cwd text, transcript_path text, first_at timestamptz, last_at timestamptz)
     ON CONFLICT (id) DO UPDATE SET
       last_event_at = GREATEST(agent_session.last_event_at, EXCLUDED.last_event_at),
       cwd = COALESCE(EXCLUDED.cwd, agent_session.cwd),
       transcript_path = COALESCE(EXCLUDED.transcript_path, agent_session.transcript_path)`,
    json(rows),
  );
}

/** The results stored for event ids already received (outside a transaction when `tx` is absent). */
async function seenEvents(
  ids: string[],
  tx?: Tx,
): Promise<Map<string, { session_id: string; type: string; result: EventResult | null }>> {
  if (ids.length === 0) return new Map();
  const rows = await (tx ?? db()).$queryRawUnsafe<
    { id: string; session_id: string; type: string; result: unknown }[]
  >(`SELECT id, session_id, type, result FROM agent_event WHERE id = ANY($1::text[])`, ids);
  return new Map(
    rows.map((r) => [
      r.id,
      {
        ...r,
        result: parseColumn(eventResultSchema.nullable(), r.result, {
          table: "agent_event",
          id: r.id,
          field: "result",
        }),
      },
    ]),
  );
}

export type LatestTurn = {
  id: string;
  session_id: string;
  number: number;
  prompt: string;
  injected_principles: string[];
  constitution_version_id: number | null;
  tools: { name: string; succeeded: boolean }[];
};

/** Each session's latest turn, with the tool calls recorded in it so far. */
async function latestTurns(tx: Tx, sessionIds: string[]): Promise<Map<string, LatestTurn>> {
  const rows = await tx.$queryRawUnsafe<
    (Omit<LatestTurn, "tools"> & { tools: LatestTurn["tools"] | null })[]
  >(
    `SELECT t.id, t.session_id, t.number, t.prompt, t.injected_principles, t.constitution_version_id,
            (SELECT json_agg(json_build_object('name', c.name, 'succeeded', c.succeeded) ORDER BY c.at, c.id)
               FROM tool_call c WHERE c.session_id = t.session_id AND c.turn_number = t.number) AS tools
     FROM (SELECT DISTINCT ON (session_id) * FROM turn WHERE session_id = ANY($1::text[]) ORDER BY session_id, number DESC) AS t`,
    sessionIds,
  );
  return new Map(rows.map((r) => [r.session_id, { ...r, tools: r.tools ?? [] }]));
}

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

/** Inserts new turns; one stopped in the same batch carries its stop fields too. */
async function insertTurns(
  tx: Tx,
  turns: (NewTurn & Partial<Omit<TurnStop, "id">>)[],
): Promise<void> {
  if (turns.length === 0) return;
  await tx.$executeRawUnsafe(
    `INSERT INTO turn (id, session_id, number, prompt, started_at, context_delivery, injected_principles, injected_key_points, retrieved_principles, retrieved_key_points, constitution_version_id, feedback,
                       response, action, tools_passed, has_mutations, context_utilization, stopped_at)
     SELECT id, session_id, number, prompt, started_at, context_delivery, injected_principles, injected_key_points, retrieved_principles, retrieved_key_points, constitution_version_id, feedback,
            response, COALESCE(action, 'send_message'), tools_passed, has_mutations, context_utilization, stopped_at
     FROM jsonb_to_recordset($1::jsonb) AS x(id text, session_id text, number int, prompt text, started_at timestamptz, context_delivery text, injected_principles text[], injected_key_points text[],
       retrieved_principles text[], retrieved_key_points text[], constitution_version_id int, feedback jsonb,
       response text, action text, tools_passed boolean, has_mutations boolean, context_utilization float8, stopped_at timestamptz)`,
    json(turns),
  );
}

async function stopTurns(tx: Tx, stops: TurnStop[]): Promise<void> {
  if (stops.length === 0) return;
  await tx.$executeRawUnsafe(
    `UPDATE turn SET response = x.response, action = x.action, tools_passed = x.tools_passed, has_mutations = x.has_mutations, context_utilization = x.context_utilization, stopped_at = x.stopped_at
     FROM jsonb_to_recordset($1::jsonb) AS x(id text, response text, action text, tools_passed boolean, has_mutations boolean, context_utilization float8, stopped_at timestamptz)
     WHERE turn.id = x.id`,
    json(stops),
  );
}

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

async function insertToolCalls(tx: Tx, calls: NewToolCall[]): Promise<void> {
  if (calls.length === 0) return;
  await tx.$executeRawUnsafe(
    `INSERT INTO tool_call (id, session_id, turn_number, tool_use_id, name, input, output, succeeded, active_principles, at)
     SELECT id, session_id, turn_number, tool_use_id, name, input, output, succeeded, active_principles, at
     FROM jsonb_to_recordset($1::jsonb) AS x(id text, session_id text, turn_number int, tool_use_id text, name text, input jsonb, output text, succeeded boolean, active_principles text[], at timestamptz)`,
    json(calls),
  );
}

async function endSessions(
  tx: Tx,
  ends: { id: string; at: string; reason: string | null }[],
): Promise<void> {
  if (ends.length === 0) return;
  await tx.$executeRawUnsafe(
    `UPDATE agent_session SET ended_at = x.at, end_reason = x.reason FROM jsonb_to_recordset($1::jsonb) AS x(id text, at timestamptz, reason text) WHERE agent_session.id = x.id`,
    json(ends),
  );
}

/** Records the batch's events with their results; an id recorded meanwhile is left as it was. */
async function recordEvents(
  tx: Tx,
  events: { id: string; session_id: string; type: string; result: unknown }[],
): Promise<void> {
  if (events.length === 0) return;
  await tx.$executeRawUnsafe(
    `INSERT INTO agent_event (id, session_id, type, result) SELECT id, session_id, type, result FROM jsonb_to_recordset($1::jsonb) AS x(id text, session_id text, type text, result jsonb) ON CONFLICT (id) DO NOTHING`,
    json(events),
  );
}

/**
 * Turns whose context never reached the agent (their prompt was delivered, then
 * replayed from a spool as undelivered): their injected principles and key points
 * become "would have injected", and so do their tool calls' active principles.
 * Returns the sessions that changed.
 */
async function markUndelivered(
  tx: Tx,
  turns: { session_id: string; number: number }[],
): Promise<string[]> {
  if (turns.length === 0) return [];
  const changed = await tx.$queryRawUnsafe<{ session_id: string; number: number }[]>(
    `UPDATE turn SET context_delivery = 'spooled', injected_principles = '{}', injected_key_points = '{}'
     FROM jsonb_to_recordset($1::jsonb) AS x(session_id text, number int)
     WHERE turn.session_id = x.session_id AND turn.number = x.number AND turn.context_delivery = 'delivered'
     RETURNING turn.session_id, turn.number`,
    json(turns),
  );
  if (changed.length === 0) return [];
  await tx.$executeRawUnsafe(
    `UPDATE tool_call SET active_principles = '{}' FROM jsonb_to_recordset($1::jsonb) AS x(session_id text, number int) WHERE tool_call.session_id = x.session_id AND tool_call.turn_number = x.number`,
    json(changed),
  );
  return [...new Set(changed.map((c) => c.session_id))];
}

/** The statements event ingestion is made of, each over a whole batch (agent_session, agent_event, turn, tool_call). */
export const eventBatches = {
  upsertSessions,
  seenEvents,
  latestTurns,
  insertTurns,
  stopTurns,
  insertToolCalls,
  endSessions,
  recordEvents,
  markUndelivered,
} as const;
