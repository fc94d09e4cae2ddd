-- Learned term weights (lib/constitution/learn.ts), one model per constitution version:
-- fitted from the version's eval set by a "fit" job in the leased job table, with the
-- eval's figures cross-validated and on the keywords alone beside them.
CREATE TABLE "constitution_model" (
  "version_id" INTEGER NOT NULL,
  "model" JSONB NOT NULL,
  "folds" INTEGER NOT NULL,
  "keywords" JSONB NOT NULL,
  "cross_validated" JSONB NOT NULL,
  "fit_ms" INTEGER NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "constitution_model_pkey" PRIMARY KEY ("version_id"),
  CONSTRAINT "constitution_model_version_id_fkey" FOREIGN KEY ("version_id")
    REFERENCES "constitution_version"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- A fit job names the version it fits.
ALTER TABLE "background_job" ADD COLUMN "version_id" INTEGER;
ALTER TABLE "background_job" DROP CONSTRAINT "background_job_kind_check";
ALTER TABLE "background_job" ADD CONSTRAINT "background_job_kind_check"
  CHECK ("kind" IN ('recompute', 'reflect', 'fit'));
