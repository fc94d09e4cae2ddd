-- A version has at most one fit job waiting or running: two instances that both find a
-- version without its fit (lib/services/learned.ts) queue one job between them.
CREATE UNIQUE INDEX "background_job_fit_once" ON "background_job" ("version_id")
  WHERE "kind" = 'fit' AND "status" IN ('queued', 'running');
