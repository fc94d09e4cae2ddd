-- The leased job table holds recomputes and reflections (its kind column tells them apart):
-- named for what it holds. Renamed in place, with its sequence, key, index and checks, so
-- the jobs already queued or run keep their rows and ids.
ALTER TABLE "recompute_job" RENAME TO "background_job";
ALTER SEQUENCE "recompute_job_id_seq" RENAME TO "background_job_id_seq";
ALTER TABLE "background_job" RENAME CONSTRAINT "recompute_job_pkey" TO "background_job_pkey";
ALTER INDEX "recompute_job_kind_status_idx" RENAME TO "background_job_kind_status_idx";
ALTER TABLE "background_job" RENAME CONSTRAINT "recompute_job_kind_check" TO "background_job_kind_check";
ALTER TABLE "background_job" RENAME CONSTRAINT "recompute_job_status_check" TO "background_job_status_check";
-- PostgreSQL 18 (PGlite 0.5) names NOT NULL constraints too (<table>_<column>_not_null);
-- earlier servers have none to rename.
DO $$
DECLARE c record;
BEGIN
  FOR c IN SELECT conname FROM pg_constraint
    WHERE conrelid = '"background_job"'::regclass AND contype = 'n' AND starts_with(conname, 'recompute_job_')
  LOOP
    EXECUTE format('ALTER TABLE "background_job" RENAME CONSTRAINT %I TO %I',
      c.conname, 'background_job_' || substr(c.conname, length('recompute_job_') + 1));
  END LOOP;
END $$;
