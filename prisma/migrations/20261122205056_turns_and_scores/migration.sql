-- CreateTable
CREATE TABLE "agent_session" (
    "id" TEXT NOT NULL,
    "source" TEXT NOT NULL DEFAULT 'hook',
    "cwd" TEXT,
    "transcript_path" TEXT,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_event_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended_at" TIMESTAMPTZ(3),
    "end_reason" TEXT,

    CONSTRAINT "agent_session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "turn" (
    "id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "prompt" TEXT NOT NULL DEFAULT '',
    "response" TEXT,
    "action" TEXT NOT NULL DEFAULT 'send_message',
    "tools_passed" BOOLEAN,
    "has_mutations" BOOLEAN,
    "context_utilization" DOUBLE PRECISION,
    "injected_principles" TEXT[],
    "constitution_version_id" INTEGER,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "stopped_at" TIMESTAMPTZ(3),

    CONSTRAINT "turn_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "turn_score" (
    "turn_id" TEXT NOT NULL,
    "engine_scores" JSONB NOT NULL,
    "tasteful" DOUBLE PRECISION NOT NULL,
    "curated" DOUBLE PRECISION NOT NULL,
    "ethical" DOUBLE PRECISION NOT NULL,
    "joy_inducing" DOUBLE PRECISION NOT NULL,
    "composable" DOUBLE PRECISION NOT NULL,
    "heterarchical" DOUBLE PRECISION NOT NULL,
    "generative" DOUBLE PRECISION NOT NULL,
    "weighted_total" DOUBLE PRECISION NOT NULL,
    "max_total" DOUBLE PRECISION NOT NULL,
    "normalized_total" DOUBLE PRECISION NOT NULL,
    "reasoning" TEXT NOT NULL,
    "weight_set_id" INTEGER NOT NULL,
    "constitution_version_id" INTEGER,
    "scored_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "turn_score_pkey" PRIMARY KEY ("turn_id")
);

-- CreateTable
CREATE TABLE "score_override" (
    "id" TEXT NOT NULL,
    "turn_id" TEXT NOT NULL,
    "principle" TEXT NOT NULL,
    "value" DOUBLE PRECISION NOT NULL,
    "reason" TEXT NOT NULL,
    "author_id" TEXT,
    "author_label" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "score_override_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tool_call" (
    "id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "turn_number" INTEGER NOT NULL,
    "tool_use_id" TEXT,
    "name" TEXT NOT NULL,
    "input" JSONB,
    "output" TEXT,
    "succeeded" BOOLEAN NOT NULL,
    "active_principles" TEXT[],
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tool_call_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_event" (
    "id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "result" JSONB,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "weight_set" (
    "id" SERIAL NOT NULL,
    "weights" JSONB NOT NULL,
    "author_id" TEXT,
    "author_label" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "weight_set_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "recompute_job" (
    "id" SERIAL NOT NULL,
    "weight_set_id" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "total" INTEGER NOT NULL DEFAULT 0,
    "done" INTEGER NOT NULL DEFAULT 0,
    "cursor" TEXT,
    "lease_owner" TEXT,
    "lease_until" TIMESTAMPTZ(3),
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "recompute_job_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "agent_session_last_event_at_idx" ON "agent_session"("last_event_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "turn_session_id_number_key" ON "turn"("session_id", "number");

-- CreateIndex
CREATE INDEX "turn_score_scored_at_turn_id_idx" ON "turn_score"("scored_at" DESC, "turn_id" DESC);

-- CreateIndex
CREATE INDEX "turn_score_normalized_total_idx" ON "turn_score"("normalized_total");

-- CreateIndex
CREATE INDEX "turn_score_weight_set_id_idx" ON "turn_score"("weight_set_id");

-- CreateIndex
CREATE UNIQUE INDEX "score_override_turn_id_principle_key" ON "score_override"("turn_id", "principle");

-- CreateIndex
CREATE INDEX "tool_call_session_id_turn_number_idx" ON "tool_call"("session_id", "turn_number");

-- CreateIndex
CREATE INDEX "agent_event_session_id_idx" ON "agent_event"("session_id");

-- CreateIndex
CREATE INDEX "recompute_job_status_idx" ON "recompute_job"("status");

-- AddForeignKey
ALTER TABLE "turn" ADD CONSTRAINT "turn_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "agent_session"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "turn_score" ADD CONSTRAINT "turn_score_turn_id_fkey" FOREIGN KEY ("turn_id") REFERENCES "turn"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "score_override" ADD CONSTRAINT "score_override_turn_id_fkey" FOREIGN KEY ("turn_id") REFERENCES "turn"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tool_call" ADD CONSTRAINT "tool_call_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "agent_session"("id") ON DELETE CASCADE ON UPDATE CASCADE;
