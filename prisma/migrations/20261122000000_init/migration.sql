-- CreateEnum
CREATE TYPE "job_status" AS ENUM ('queued', 'running', 'succeeded', 'failed', 'cancelled');

-- CreateEnum
CREATE TYPE "browser_env" AS ENUM ('local_browser', 'hosted_browser');

-- CreateEnum
CREATE TYPE "idp_mode" AS ENUM ('platform', 'custom', 'off');

-- CreateEnum
CREATE TYPE "mail_status" AS ENUM ('queued', 'sent', 'failed');

-- CreateEnum
CREATE TYPE "deployment_status" AS ENUM ('pending', 'active', 'failed', 'superseded');

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "owner" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" VARCHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "jobs" (
    "id" UUID NOT NULL,
    "owner" TEXT NOT NULL,
    "query" TEXT NOT NULL,
    "initial_url" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "env" "browser_env" NOT NULL DEFAULT 'local_browser',
    "highlight_mouse" BOOLEAN NOT NULL DEFAULT true,
    "metadata" JSONB,
    "status" "job_status" NOT NULL DEFAULT 'queued',
    "summary" TEXT,
    "steps" JSONB NOT NULL DEFAULT '[]',
    "error" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "worker_id" TEXT,
    "trace_context" JSONB,
    "context_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "log_path" TEXT,
    "video_path" TEXT,

    CONSTRAINT "jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "job_events" (
    "id" BIGSERIAL NOT NULL,
    "job_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "data" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "job_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "a2a_contexts" (
    "id" UUID NOT NULL,
    "owner" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "a2a_contexts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "a2a_messages" (
    "id" UUID NOT NULL,
    "context_id" UUID NOT NULL,
    "task_id" UUID,
    "message_id" TEXT,
    "role" TEXT NOT NULL,
    "parts" JSONB NOT NULL DEFAULT '[]',
    "metadata" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "a2a_messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "push_notification_configs" (
    "id" TEXT NOT NULL,
    "job_id" UUID NOT NULL,
    "owner" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "token" TEXT,
    "auth_scheme" TEXT,
    "auth_credentials" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "push_notification_configs_pkey" PRIMARY KEY ("job_id","id")
);

-- CreateTable
CREATE TABLE "projects" (
    "id" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "tenant_database" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "projects_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "custom_domains" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "domain" TEXT NOT NULL,
    "verified" BOOLEAN NOT NULL DEFAULT false,
    "verification_token" TEXT NOT NULL,
    "verified_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "custom_domains_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "auth_settings" (
    "project_id" UUID NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "email_password" BOOLEAN NOT NULL DEFAULT true,
    "allow_signups" BOOLEAN NOT NULL DEFAULT true,
    "idp_mode" "idp_mode" NOT NULL DEFAULT 'platform',
    "idp_client_id" TEXT,
    "idp_client_secret" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "auth_settings_pkey" PRIMARY KEY ("project_id")
);

-- CreateTable
CREATE TABLE "smtp_settings" (
    "project_id" UUID NOT NULL,
    "host" TEXT NOT NULL,
    "port" INTEGER NOT NULL,
    "secure" BOOLEAN NOT NULL DEFAULT false,
    "user" TEXT,
    "pass" TEXT,
    "from" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "smtp_settings_pkey" PRIMARY KEY ("project_id")
);

-- CreateTable
CREATE TABLE "mail_log" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "to" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "status" "mail_status" NOT NULL DEFAULT 'queued',
    "error" TEXT,
    "message_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(3),

    CONSTRAINT "mail_log_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "deployments" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "status" "deployment_status" NOT NULL DEFAULT 'pending',
    "files" JSONB NOT NULL DEFAULT '{}',
    "hook_blocking" BOOLEAN,
    "hook_timeout_ms" INTEGER,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "deployments_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "api_keys_owner_idx" ON "api_keys"("owner");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");

-- CreateIndex
CREATE INDEX "jobs_owner_created_at_idx" ON "jobs"("owner", "created_at" DESC);

-- CreateIndex
CREATE INDEX "jobs_status_idx" ON "jobs"("status");

-- CreateIndex
CREATE INDEX "jobs_context_id_idx" ON "jobs"("context_id");

-- CreateIndex
CREATE UNIQUE INDEX "job_events_job_id_seq_key" ON "job_events"("job_id", "seq");

-- CreateIndex
CREATE INDEX "a2a_contexts_owner_idx" ON "a2a_contexts"("owner");

-- CreateIndex
CREATE INDEX "a2a_messages_context_id_created_at_idx" ON "a2a_messages"("context_id", "created_at");

-- CreateIndex
CREATE INDEX "a2a_messages_task_id_created_at_idx" ON "a2a_messages"("task_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "projects_slug_key" ON "projects"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "custom_domains_domain_key" ON "custom_domains"("domain");

-- CreateIndex
CREATE INDEX "custom_domains_project_id_idx" ON "custom_domains"("project_id");

-- CreateIndex
CREATE INDEX "mail_log_project_id_created_at_idx" ON "mail_log"("project_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "deployments_project_id_created_at_idx" ON "deployments"("project_id", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "deployments_project_id_version_key" ON "deployments"("project_id", "version");

-- AddForeignKey
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_context_id_fkey" FOREIGN KEY ("context_id") REFERENCES "a2a_contexts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "job_events" ADD CONSTRAINT "job_events_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "a2a_messages" ADD CONSTRAINT "a2a_messages_context_id_fkey" FOREIGN KEY ("context_id") REFERENCES "a2a_contexts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "a2a_messages" ADD CONSTRAINT "a2a_messages_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "push_notification_configs" ADD CONSTRAINT "push_notification_configs_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "custom_domains" ADD CONSTRAINT "custom_domains_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "auth_settings" ADD CONSTRAINT "auth_settings_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "smtp_settings" ADD CONSTRAINT "smtp_settings_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mail_log" ADD CONSTRAINT "mail_log_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "deployments" ADD CONSTRAINT "deployments_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Host names are case-insensitive: stored lower case, the unique index covers every spelling
-- (Prisma cannot express CHECK constraints; it ignores them when it diffs).
ALTER TABLE "custom_domains" ADD CONSTRAINT "custom_domains_domain_lower_check" CHECK ("domain" = lower("domain"));
