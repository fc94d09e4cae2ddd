-- A turn records whether the agent was given its retrieved context (issue 11).
ALTER TABLE "turn" ADD COLUMN "context_delivery" TEXT NOT NULL DEFAULT 'delivered',
ADD COLUMN "retrieved_principles" TEXT[],
ADD COLUMN "retrieved_key_points" TEXT[];
UPDATE "turn" SET "retrieved_principles" = "injected_principles", "retrieved_key_points" = "injected_key_points";
UPDATE "turn" SET "context_delivery" = 'imported', "injected_principles" = '{}', "injected_key_points" = '{}'
  WHERE "session_id" IN (SELECT "id" FROM "agent_session" WHERE "source" = 'import');
UPDATE "tool_call" SET "active_principles" = '{}'
  WHERE "session_id" IN (SELECT "id" FROM "agent_session" WHERE "source" = 'import');
-- Credits recorded for imported sessions rested on principles the agent never saw: take them back.
WITH "taken" AS (
  DELETE FROM "principle_usage" WHERE "trace_id" IN (SELECT "id" FROM "agent_session" WHERE "source" = 'import')
  RETURNING "principle_id", "credit"
)
UPDATE "principle_stat" SET "use_count" = "principle_stat"."use_count" - "t"."uses", "success_count" = "principle_stat"."success_count" - "t"."credit", "updated_at" = now()
  FROM (SELECT "principle_id", count(*)::int AS "uses", sum("credit") AS "credit" FROM "taken" GROUP BY "principle_id") AS "t"
  WHERE "principle_stat"."principle_id" = "t"."principle_id";
UPDATE "session_outcome" SET "credits" = '[]'::jsonb
  WHERE "session_id" IN (SELECT "id" FROM "agent_session" WHERE "source" = 'import');
UPDATE "turn" SET "context_delivery" = 'none' WHERE "prompt" = '' AND cardinality("injected_principles") = 0;

-- The leased job table also queues reflections.
ALTER TABLE "recompute_job" ADD COLUMN "kind" TEXT NOT NULL DEFAULT 'recompute',
ADD COLUMN "session_id" TEXT,
ADD COLUMN "attempts" INTEGER NOT NULL DEFAULT 0,
ALTER COLUMN "weight_set_id" DROP NOT NULL;
DROP INDEX "recompute_job_status_idx";
CREATE INDEX "recompute_job_kind_status_idx" ON "recompute_job"("kind", "status");
