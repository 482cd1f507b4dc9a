-- MCP clients of the project's authorization server (dynamic client registration), the consent a
-- user gave each, and refresh-token rows that belong to an MCP client's grant (client_id set)
-- rather than to an /api/user sign-in (client_id null).

-- AlterTable
ALTER TABLE "platform_auth"."sessions" ADD COLUMN "client_id" TEXT;

-- CreateTable
CREATE TABLE "platform_auth"."oauth_clients" (
    "id" TEXT NOT NULL,
    "name" TEXT,
    "redirect_uris" TEXT[] NOT NULL,
    "secret_hash" VARCHAR(64),
    "auth_method" TEXT NOT NULL,
    "metadata" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_clients_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "platform_auth"."oauth_consents" (
    "user_id" UUID NOT NULL,
    "client_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_consents_pkey" PRIMARY KEY ("user_id","client_id")
);

-- CreateIndex
CREATE INDEX "sessions_client_id_idx" ON "platform_auth"."sessions"("client_id");

-- CreateIndex
CREATE INDEX "oauth_consents_client_id_idx" ON "platform_auth"."oauth_consents"("client_id");

-- AddForeignKey
ALTER TABLE "platform_auth"."sessions" ADD CONSTRAINT "sessions_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "platform_auth"."oauth_clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "platform_auth"."oauth_consents" ADD CONSTRAINT "oauth_consents_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "platform_auth"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "platform_auth"."oauth_consents" ADD CONSTRAINT "oauth_consents_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "platform_auth"."oauth_clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;
