-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "platform_auth";

-- CreateEnum
CREATE TYPE "platform_auth"."nonce_kind" AS ENUM ('magic_link', 'forgot_password', 'email_change');

-- CreateTable
CREATE TABLE "platform_auth"."users" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "picture" TEXT,
    "password_hash" TEXT,
    "email_verified" BOOLEAN NOT NULL DEFAULT false,
    "pending_email" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "platform_auth"."identities" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "issuer" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "email" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "identities_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "platform_auth"."sessions" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "token_hash" VARCHAR(64) NOT NULL,
    "replaced_by_id" UUID,
    "rotated_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "user_agent" TEXT,
    "ip" TEXT,

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "platform_auth"."nonces" (
    "id" UUID NOT NULL,
    "user_id" UUID,
    "kind" "platform_auth"."nonce_kind" NOT NULL,
    "code_hash" VARCHAR(64) NOT NULL,
    "email" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "consumed_at" TIMESTAMPTZ(3),
    "redirect_uri" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "nonces_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "platform_auth"."users"("email");

-- CreateIndex
CREATE INDEX "identities_user_id_idx" ON "platform_auth"."identities"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "identities_issuer_subject_key" ON "platform_auth"."identities"("issuer", "subject");

-- CreateIndex
CREATE UNIQUE INDEX "sessions_token_hash_key" ON "platform_auth"."sessions"("token_hash");

-- CreateIndex
CREATE UNIQUE INDEX "sessions_replaced_by_id_key" ON "platform_auth"."sessions"("replaced_by_id");

-- CreateIndex
CREATE INDEX "sessions_user_id_idx" ON "platform_auth"."sessions"("user_id");

-- CreateIndex
CREATE INDEX "sessions_family_id_idx" ON "platform_auth"."sessions"("family_id");

-- CreateIndex
CREATE UNIQUE INDEX "nonces_code_hash_key" ON "platform_auth"."nonces"("code_hash");

-- CreateIndex
CREATE INDEX "nonces_user_id_kind_idx" ON "platform_auth"."nonces"("user_id", "kind");

-- AddForeignKey
ALTER TABLE "platform_auth"."identities" ADD CONSTRAINT "identities_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "platform_auth"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "platform_auth"."sessions" ADD CONSTRAINT "sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "platform_auth"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "platform_auth"."sessions" ADD CONSTRAINT "sessions_replaced_by_id_fkey" FOREIGN KEY ("replaced_by_id") REFERENCES "platform_auth"."sessions"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "platform_auth"."nonces" ADD CONSTRAINT "nonces_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "platform_auth"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Emails are stored lower case so the unique index ignores case (Prisma cannot express CHECK
-- constraints; it ignores them when it diffs).
ALTER TABLE "platform_auth"."users" ADD CONSTRAINT "users_email_lower_check" CHECK ("email" = lower("email"));
ALTER TABLE "platform_auth"."users" ADD CONSTRAINT "users_pending_email_lower_check" CHECK ("pending_email" = lower("pending_email"));
