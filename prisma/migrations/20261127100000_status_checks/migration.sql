-- Status columns hold one of a fixed set of values; the database refuses any other,
-- whoever writes (lib/db checks the same lists when it reads: lib/schemas/statuses.ts,
-- and lib/db/status-checks.db.test.ts holds the two to each other).
ALTER TABLE "recompute_job" ADD CONSTRAINT "recompute_job_kind_check"
  CHECK ("kind" IN ('recompute', 'reflect'));
ALTER TABLE "recompute_job" ADD CONSTRAINT "recompute_job_status_check"
  CHECK ("status" IN ('queued', 'running', 'done', 'failed', 'superseded'));
ALTER TABLE "key_point" ADD CONSTRAINT "key_point_status_check"
  CHECK ("status" IN ('active', 'proposed', 'pruned'));
ALTER TABLE "session_outcome" ADD CONSTRAINT "session_outcome_status_check"
  CHECK ("status" IN ('success', 'failure', 'partial'));
ALTER TABLE "reflection" ADD CONSTRAINT "reflection_status_check"
  CHECK ("status" IN ('applied', 'failed'));
ALTER TABLE "turn" ADD CONSTRAINT "turn_context_delivery_check"
  CHECK ("context_delivery" IN ('delivered', 'spooled', 'imported', 'none'));
