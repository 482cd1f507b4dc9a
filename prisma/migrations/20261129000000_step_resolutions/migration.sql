-- CreateTable
CREATE TABLE "step_resolutions" (
    "key" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "initial_url" TEXT NOT NULL,
    "query" TEXT NOT NULL,
    "steps" JSONB NOT NULL,
    "job_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "step_resolutions_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "step_resolutions_owner_idx" ON "step_resolutions"("owner");
