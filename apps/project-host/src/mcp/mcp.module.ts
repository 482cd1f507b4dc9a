import { Logger, Module } from '@nestjs/common';
import { createHostResolver, EgressPolicy } from '@suite/egress-policy';
import { PROJECT_HOST_CONFIG } from '../app.tokens.js';
import type { ProjectHostConfig } from '../project-host.config.js';
import { ProjectCodeModule } from '../project-code/project-code.module.js';
import { UserAuthModule } from '../user-auth/user-auth.module.js';
import { McpAccessTokens } from './mcp-access-tokens.js';
import { McpController } from './mcp.controller.js';
import { McpToolCatalog } from './mcp-tool-catalog.js';
import { AuthorizationCodes } from './oauth/authorization-codes.js';
import { ClientMetadataDocuments } from './oauth/client-metadata-documents.js';
import { ConsentSeals } from './oauth/consent-seals.js';
import { ConsentSignInService } from './oauth/consent-sign-in.service.js';
import { ConsentController } from './oauth/consent.controller.js';
import { ConsentService } from './oauth/consent.service.js';
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
  providers: [
    McpAccessTokens,
    McpToolCatalog,
    McpOAuthService,
    ConsentService,
    ConsentSignInService,
    ConsentSeals,
    OAuthClients,
    AuthorizationCodes,
    McpGrants,
    {
      provide: ClientMetadataDocuments,
      inject: [PROJECT_HOST_CONFIG],
      useFactory: (config: ProjectHostConfig) => {
        const logger = new Logger('mcp-client-metadata');
        return new ClientMetadataDocuments({
          policy: new EgressPolicy({
            mode: config.MCP_CLIENT_METADATA_NETWORK,
            allowedHosts: config.MCP_CLIENT_METADATA_ALLOWED_HOSTS,
            modeSetting: 'MCP_CLIENT_METADATA_NETWORK',
            allowListSetting: 'MCP_CLIENT_METADATA_ALLOWED_HOSTS',
            subject: 'MCP client metadata',
          }),
          resolve: createHostResolver(),
          log: (message) => logger.warn(message),
        });
      },
    },
  ],
  // The control plane lists and revokes grants through the same service as the end user.
  exports: [McpGrants],
})
export class McpModule {}
