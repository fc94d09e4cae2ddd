-- AlterTable
ALTER TABLE "turn" ADD COLUMN     "injected_key_points" TEXT[];

-- CreateTable
CREATE TABLE "key_point" (
    "name" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "helpful" INTEGER NOT NULL DEFAULT 0,
    "harmful" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL DEFAULT 'active',
    "kept_at_harmful" INTEGER,
    "source" TEXT NOT NULL DEFAULT 'manual',
    "created_in_session" TEXT,
    "pruned_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "key_point_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "key_point_evaluation" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "session_id" TEXT,
    "rating" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "key_point_evaluation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reflection" (
    "id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "result" JSONB,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "reflection_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "key_point_status_idx" ON "key_point"("status");

-- CreateIndex
CREATE INDEX "key_point_evaluation_name_created_at_idx" ON "key_point_evaluation"("name", "created_at");

-- CreateIndex
CREATE INDEX "reflection_session_id_created_at_idx" ON "reflection"("session_id", "created_at" DESC);

-- AddForeignKey
ALTER TABLE "key_point_evaluation" ADD CONSTRAINT "key_point_evaluation_name_fkey" FOREIGN KEY ("name") REFERENCES "key_point"("name") ON DELETE CASCADE ON UPDATE CASCADE;

-- Key point names come from this sequence: never reused, never renumbered.
CREATE SEQUENCE "key_point_name_seq" START 1;
