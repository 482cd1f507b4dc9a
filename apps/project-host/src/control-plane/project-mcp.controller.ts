import { Controller, Delete, Get, HttpCode, Param, Query } from '@nestjs/common';
import {
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
} from '@nestjs/swagger';
import { ADMIN_INPUT, PageQueryDto, UserErrorDto } from '@suite/contracts';
import type { McpConnectionView } from '../mcp/oauth/mcp-grants.js';
import { ControlPlaneApi } from './control-plane-api.decorator.js';
import type { Page } from './project.view.js';
import { type McpToolsView, ProjectMcpService } from './project-mcp.service.js';

const CONNECTION_FIELDS =
  '`clientId`, `clientName` (as the client named itself), `kind` (`registered` or `metadata-document`: ' +
  'the client id is the https URL of its metadata document), `redirectUris`, `user` `{id, email}`, ' +
  '`grantedAt` (the consent), `lastTokenAt` (its latest code exchange or refresh; null if none) and ' +
  '`liveConnections` (refresh tokens that still work). Grants carry no scopes: an approved client ' +
  'calls every tool as the user.';

/** A project's MCP server: deployed tools, connected clients per user, revoking a user's grant. */
@ControlPlaneApi()
@ApiNotFoundResponse({
  description: 'project_not_found, or not_found: no such user, or the user has not connected that client.',
  type: UserErrorDto,
})
@Controller('v1/projects/:projectId')
export class ProjectMcpController {
  constructor(private readonly mcp: ProjectMcpService) {}

  @Get('mcp/tools')
  @ApiOperation({ summary: 'The MCP tools the active deployment serves at /mcp of the project hosts.' })
  @ApiOkResponse({
    description:
      '`{ mcpEnabled, deploymentVersion, tools: [{ name, title, description, auth, inputSchema, outputSchema }] }` ' +
      '(`auth`: `required`, `optional` or false; `deploymentVersion` null when nothing is deployed).',
  })
  tools(@Param('projectId') projectId: string): Promise<McpToolsView> {
    return this.mcp.tools(projectId);
  }

  @Get('mcp/clients')
  @ApiOperation({
    summary: 'MCP clients the project’s users connected (one entry per user and client), newest first.',
  })
  @ApiOkResponse({ description: `\`{ items, page, pageSize, total }\`; each item: ${CONNECTION_FIELDS}` })
  clients(
    @Param('projectId') projectId: string,
    @Query(ADMIN_INPUT) query: PageQueryDto,
  ): Promise<Page<McpConnectionView>> {
    return this.mcp.clients(projectId, query);
  }

  @Get('users/:userId/mcp/clients')
  @ApiOperation({ summary: 'The MCP clients one user connected, newest first.' })
  @ApiOkResponse({ description: `\`{ items, page, pageSize, total }\`; each item: ${CONNECTION_FIELDS}` })
  clientsOfUser(
    @Param('projectId') projectId: string,
    @Param('userId') userId: string,
    @Query(ADMIN_INPUT) query: PageQueryDto,
  ): Promise<Page<McpConnectionView>> {
    return this.mcp.clientsOfUser(projectId, userId, query);
  }

  @Delete('users/:userId/mcp/clients/:clientId')
  @HttpCode(204)
  @ApiOperation({
    summary:
      'Revoke a user’s grant of an MCP client, as the user can: the consent is forgotten, its refresh and access ' +
      'tokens stop working at once, and the next connection asks the user again.',
  })
  @ApiParam({
    name: 'clientId',
    description: 'The client id; a metadata-document client’s https URL percent-encoded as one path segment.',
    example: 'https%3A%2F%2Fapp.example.com%2Foauth%2Fclient.json',
  })
  @ApiNoContentResponse({ description: 'Revoked.' })
  revoke(
    @Param('projectId') projectId: string,
    @Param('userId') userId: string,
    @Param('clientId') clientId: string,
  ): Promise<void> {
    return this.mcp.revoke(projectId, userId, clientId);
  }
}
