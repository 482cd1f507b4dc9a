-- AlterTable: where each project's tenant database lives (a server name of TENANT_DATABASE_SERVERS;
-- 'default' is the server tenants lived on before placement existed, so existing rows keep it), the
-- newest platform_auth migration applied to it (NULL: not known yet, checked on first use), and
-- since when it is read-only while it moves to another server.
ALTER TABLE "projects" ADD COLUMN "tenant_server" TEXT NOT NULL DEFAULT 'default';
ALTER TABLE "projects" ADD COLUMN "tenant_schema_version" TEXT;
ALTER TABLE "projects" ADD COLUMN "tenant_moving_since" TIMESTAMPTZ(3);

-- CreateIndex: placement counts projects per server; upgrades look for tenants behind per server
CREATE INDEX "projects_tenant_server_idx" ON "projects"("tenant_server");
