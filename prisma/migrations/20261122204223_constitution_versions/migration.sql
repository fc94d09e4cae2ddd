-- CreateTable
CREATE TABLE "constitution_version" (
    "id" SERIAL NOT NULL,
    "content_hash" TEXT NOT NULL,
    "files" JSONB NOT NULL,
    "author_id" TEXT,
    "author_label" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "parent_id" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "constitution_version_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "constitution_head" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "version_id" INTEGER NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "constitution_head_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "orchestration_event" (
    "id" BIGSERIAL NOT NULL,
    "type" TEXT NOT NULL,
    "run_id" TEXT,
    "request_id" TEXT,
    "detail" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "orchestration_event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "llm_call" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "component" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "prompt_hash" TEXT NOT NULL,
    "latency_ms" INTEGER NOT NULL,
    "prompt_tokens" INTEGER,
    "completion_tokens" INTEGER,
    "outcome" TEXT NOT NULL,
    "error" TEXT,
    "run_id" TEXT,
    "request_id" TEXT,
    "parse_contract" JSONB,

    CONSTRAINT "llm_call_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "constitution_version_content_hash_idx" ON "constitution_version"("content_hash");

-- CreateIndex
CREATE INDEX "orchestration_event_created_at_idx" ON "orchestration_event"("created_at" DESC);

-- CreateIndex
CREATE INDEX "orchestration_event_request_id_idx" ON "orchestration_event"("request_id");

-- CreateIndex
CREATE INDEX "llm_call_at_idx" ON "llm_call"("at" DESC);

-- CreateIndex
CREATE INDEX "llm_call_request_id_idx" ON "llm_call"("request_id");
