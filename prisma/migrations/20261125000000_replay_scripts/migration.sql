-- AlterTable
ALTER TABLE "jobs" ADD COLUMN "actions" JSONB,
ADD COLUMN "replay" JSONB;

-- CreateTable
CREATE TABLE "replay_scripts" (
    "key" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "initial_url" TEXT NOT NULL,
    "query" TEXT NOT NULL,
    "script" TEXT NOT NULL,
    "llm_calls" INTEGER NOT NULL,
    "job_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "replay_scripts_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "replay_scripts_owner_idx" ON "replay_scripts"("owner");
