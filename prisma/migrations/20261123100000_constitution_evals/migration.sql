-- CreateTable
CREATE TABLE "constitution_eval_run" (
    "id" SERIAL NOT NULL,
    "version_id" INTEGER NOT NULL,
    "path" TEXT NOT NULL,
    "passed" BOOLEAN NOT NULL,
    "case_count" INTEGER NOT NULL,
    "metrics" JSONB NOT NULL,
    "thresholds" JSONB NOT NULL,
    "failures" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "constitution_eval_run_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "constitution_eval_run_version_id_path_key" ON "constitution_eval_run"("version_id", "path");

-- CreateIndex
CREATE INDEX "turn_started_at_idx" ON "turn"("started_at" DESC);
