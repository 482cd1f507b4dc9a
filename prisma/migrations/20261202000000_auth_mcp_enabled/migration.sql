-- AlterTable: whether the project's MCP server (/mcp) and its OAuth authorization server are on (existing projects keep it on)
ALTER TABLE "auth_settings" ADD COLUMN "mcp_enabled" BOOLEAN NOT NULL DEFAULT true;
