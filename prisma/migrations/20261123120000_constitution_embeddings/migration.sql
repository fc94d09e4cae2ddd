-- CreateTable
CREATE TABLE "constitution_embedding" (
    "model" TEXT NOT NULL,
    "text_hash" TEXT NOT NULL,
    "vector" DOUBLE PRECISION[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "constitution_embedding_pkey" PRIMARY KEY ("model","text_hash")
);
