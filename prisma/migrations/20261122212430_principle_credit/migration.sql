-- AlterTable
ALTER TABLE "turn" ADD COLUMN     "feedback" JSONB;

-- CreateTable
CREATE TABLE "principle_stat" (
    "principle_id" TEXT NOT NULL,
    "use_count" INTEGER NOT NULL DEFAULT 0,
    "success_count" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "principle_stat_pkey" PRIMARY KEY ("principle_id")
);

-- CreateTable
CREATE TABLE "principle_usage" (
    "id" TEXT NOT NULL,
    "principle_id" TEXT NOT NULL,
    "trace_id" TEXT,
    "was_successful" BOOLEAN NOT NULL,
    "credit" DOUBLE PRECISION NOT NULL DEFAULT 0.5,
    "reasoning" TEXT,
    "constitution_version_id" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "principle_usage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "session_outcome" (
    "session_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "score" DOUBLE PRECISION NOT NULL,
    "signals" JSONB NOT NULL,
    "credits" JSONB NOT NULL,
    "computed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "session_outcome_pkey" PRIMARY KEY ("session_id")
);

-- CreateIndex
CREATE INDEX "principle_usage_principle_id_created_at_idx" ON "principle_usage"("principle_id", "created_at");

-- CreateIndex
CREATE INDEX "principle_usage_trace_id_idx" ON "principle_usage"("trace_id");

-- CreateIndex
CREATE INDEX "session_outcome_computed_at_idx" ON "session_outcome"("computed_at" DESC);
