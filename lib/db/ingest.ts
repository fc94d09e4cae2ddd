import type { PlaybookEntry } from "@/lib/playbook";
import type { ScoreDict } from "@/lib/reward";
import { eventResultSchema, type EventResult } from "@/lib/schemas/events";
import { db } from "./client";
import { writePlan, recordResults, markUndelivered } from "./ingest-write";
import { parseColumn } from "./json-column";
import { PLAYBOOK_INJECTION_ORDER } from "./key-points";
import { jsonParameter as json } from "./sql-json";
import { inIngestTransaction, type Sql } from "./ingest-sql";

export type { NewToolCall, NewTurn, TurnStop, EventResultRow, PlanWrites } from "./ingest-write";

/*
 * The set-based statements behind event ingestion: each reads or writes every row
 * of a group of events at once, whatever it holds, passing the rows as one JSON
 * parameter (`jsonb_to_recordset`). A group costs three statements however many
 * requests it joins (claim, read, write), plus one for scores when turns stop and a
 * few for credit when sessions end. lib/services/ingest.ts decides what to write.
 */

/** One event as the claim needs it: where it belongs and when it happened. */
export type EventClaim = {
  id: string;
  session_id: string;
  type: string;
  at: string;
  cwd: string | null;
  transcript_path: string | null;
  agent: string | null;
  agent_version: string | null;
};

/**
 * Claims event ids for this transaction and touches the sessions of the claimed
 * events only, in one statement; returns the ids claimed. An id recorded before, or
 * by a concurrent transaction (the insert waits for it to end), is not claimed: it is
 * a duplicate and has no effect, whatever session it names (one event, one effect).
 * Every claim is taken before any session lock (the aggregate reads all claims
 * first), each kind in id order, so two groups never wait on each other in a cycle.
 * The session row locks keep a session's events applied one transaction at a time.
 */
async function claim(sql: Sql, events: EventClaim[], source: string): Promise<Set<string>> {
  if (events.length === 0) return new Set();
  const rows = await sql.query<{ id: string }>(
    `WITH x AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb)
         AS x(id text, session_id text, type text, at timestamptz, cwd text, transcript_path text,
              agent text, agent_version text, ord int)
     ), claimed AS (
       INSERT INTO agent_event (id, session_id, type)
       SELECT id, session_id, type FROM x ORDER BY id
       ON CONFLICT (id) DO NOTHING
       RETURNING id
     ), touched AS (
       INSERT INTO agent_session (id, source, cwd, transcript_path, agent, agent_version, started_at, last_event_at)
       SELECT session_id, $2,
              (array_agg(cwd ORDER BY ord DESC) FILTER (WHERE cwd IS NOT NULL))[1],
              (array_agg(transcript_path ORDER BY ord DESC) FILTER (WHERE transcript_path IS NOT NULL))[1],
              (array_agg(agent ORDER BY ord DESC) FILTER (WHERE agent IS NOT NULL))[1],
              (array_agg(agent_version ORDER BY ord DESC) FILTER (WHERE agent_version IS NOT NULL))[1],
              min(at), max(at)
       FROM x WHERE id IN (SELECT id FROM claimed)
       GROUP BY session_id ORDER BY session_id
       ON CONFLICT (id) DO UPDATE SET
         last_event_at = GREATEST(agent_session.last_event_at, EXCLUDED.last_event_at),
         cwd = COALESCE(EXCLUDED.cwd, agent_session.cwd),
         transcript_path = COALESCE(EXCLUDED.transcript_path, agent_session.transcript_path),
         agent = COALESCE(EXCLUDED.agent, agent_session.agent),
         -- A version belongs to its agent: a new agent without one leaves no stale version behind.
         agent_version = CASE
           WHEN EXCLUDED.agent IS NOT NULL AND EXCLUDED.agent IS DISTINCT FROM agent_session.agent
             THEN EXCLUDED.agent_version
           ELSE COALESCE(EXCLUDED.agent_version, agent_session.agent_version) END
       RETURNING 1
     )
     SELECT id FROM claimed`,
    [json(events.map((e, ord) => ({ ...e, ord }))), source],
  );
  return new Set(rows.map((r) => r.id));
}

export type StoredEvent = { session_id: string; type: string; result: EventResult | null };

/** The results stored for event ids already received, outside any transaction. */
async function seenEvents(ids: string[]): Promise<Map<string, StoredEvent>> {
  if (ids.length === 0) return new Map();
  const rows = await db().$queryRawUnsafe<
    { id: string; session_id: string; type: string; result: unknown }[]
  >(`SELECT id, session_id, type, result FROM agent_event WHERE id = ANY($1::text[])`, ids);
  return storedEvents(rows);
}

function storedEvents(
  rows: { id: string; session_id: string; type: string; result: unknown }[],
): Map<string, StoredEvent> {
  return new Map(
    rows.map((r) => [
      r.id,
      {
        session_id: r.session_id,
        type: r.type,
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
  /** Reviewers' overrides of this turn's scores (a stop in this group is scored with them). */
  overrides: Partial<ScoreDict>;
};

/**
 * What a group needs to plan its writes, in one statement run after the claim (so
 * under the sessions' locks, with a fresh snapshot): each session's latest turn with
 * its tool calls and score overrides, the stored rows of the duplicates, and the
 * playbook's most trusted active key points when `playbookLimit` > 0.
 */
async function readState(
  sql: Sql,
  input: { sessionIds: string[]; duplicateIds: string[]; playbookLimit: number },
): Promise<{
  latest: Map<string, LatestTurn>;
  seen: Map<string, StoredEvent>;
  playbook: PlaybookEntry[];
}> {
  const [row] = await sql.query<{
    turns: LatestTurn[] | null;
    seen: { id: string; session_id: string; type: string; result: unknown }[] | null;
    playbook: PlaybookEntry[] | null;
  }>(
    `SELECT
       (SELECT json_agg(json_build_object(
           'id', t.id, 'session_id', t.session_id, 'number', t.number, 'prompt', t.prompt,
           'injected_principles', t.injected_principles, 'constitution_version_id', t.constitution_version_id,
           'tools', COALESCE((SELECT json_agg(json_build_object('name', c.name, 'succeeded', c.succeeded) ORDER BY c.at, c.id)
                              FROM tool_call c WHERE c.session_id = t.session_id AND c.turn_number = t.number), '[]'::json),
           'overrides', COALESCE((SELECT json_object_agg(o.principle, o.value) FROM score_override o WHERE o.turn_id = t.id), '{}'::json)))
        FROM (SELECT DISTINCT ON (session_id) id, session_id, number, prompt, injected_principles, constitution_version_id
              FROM turn WHERE session_id = ANY($1::text[]) ORDER BY session_id, number DESC) AS t) AS turns,
       (SELECT json_agg(json_build_object('id', e.id, 'session_id', e.session_id, 'type', e.type, 'result', e.result))
        FROM agent_event e WHERE e.id = ANY($2::text[])) AS seen,
       (SELECT json_agg(k) FROM (
          SELECT name, text, helpful, harmful FROM key_point WHERE status = 'active'
          ORDER BY ${PLAYBOOK_INJECTION_ORDER} LIMIT $3::int) AS k) AS playbook`,
    [input.sessionIds, input.duplicateIds, Math.max(0, input.playbookLimit)],
  );
  return {
    latest: new Map((row?.turns ?? []).map((t) => [t.session_id, t])),
    seen: storedEvents(row?.seen ?? []),
    playbook: row?.playbook ?? [],
  };
}

/** The statements event ingestion is made of, each over a whole group (agent_session, agent_event, turn, tool_call). */
export const eventBatches = {
  transaction: inIngestTransaction,
  claim,
  seenEvents,
  readState,
  writePlan,
  recordResults,
  markUndelivered,
} as const;
