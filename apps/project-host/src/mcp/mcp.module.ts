import { Module } from '@nestjs/common';
import { ProjectCodeModule } from '../project-code/project-code.module.js';
import { UserAuthModule } from '../user-auth/user-auth.module.js';
import { McpAccessTokens } from './mcp-access-tokens.js';
import { McpController } from './mcp.controller.js';
import { McpToolCatalog } from './mcp-tool-catalog.js';
import { AuthorizationCodes } from './oauth/authorization-codes.js';
import { ConsentController } from './oauth/consent.controller.js';
import { McpGrants } from './oauth/mcp-grants.js';
import { McpGrantsController } from './oauth/mcp-grants.controller.js';
import { McpOAuthService } from './oauth/mcp-oauth.service.js';
import { OAuthClients } from './oauth/oauth-clients.js';
import { OAuthController } from './oauth/oauth.controller.js';

/**
 * The project host as an MCP server: `/mcp` serving the deployment's `mcp/` tools, the RFC 9728
 * resource metadata, and the host as the OAuth 2.1 authorization server of its `/mcp` (`oauth/`:
 * metadata, registration, the consent page, the token endpoint).
 */
@Module({
  imports: [UserAuthModule, ProjectCodeModule],
  controllers: [McpController, OAuthController, ConsentController, McpGrantsController],
  providers: [McpAccessTokens, McpToolCatalog, McpOAuthService, OAuthClients, AuthorizationCodes, McpGrants],
})
export class McpModule {}
