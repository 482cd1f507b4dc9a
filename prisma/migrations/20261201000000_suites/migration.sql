-- CreateTable
CREATE TABLE "suites" (
    "id" UUID NOT NULL,
    "owner" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "base_url" TEXT,
    "tags" TEXT[] NOT NULL,
    "tests" JSONB NOT NULL,
    "schedule" TEXT,
    "webhook" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "suites_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "suite_runs" (
    "id" UUID NOT NULL,
    "suite_id" UUID NOT NULL,
    "owner" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "jobs" JSONB NOT NULL DEFAULT '[]',
    "notified" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "suite_runs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "suites_owner_name_key" ON "suites"("owner", "name");

-- CreateIndex
CREATE INDEX "suite_runs_suite_id_created_at_idx" ON "suite_runs"("suite_id", "created_at" DESC);

-- AddForeignKey
ALTER TABLE "suite_runs" ADD CONSTRAINT "suite_runs_suite_id_fkey" FOREIGN KEY ("suite_id") REFERENCES "suites"("id") ON DELETE CASCADE ON UPDATE CASCADE;
