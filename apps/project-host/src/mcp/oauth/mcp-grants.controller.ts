import { Controller, Delete, Get, HttpCode, Param, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AuthError, AuthErrorCode } from '@suite/errors';
import { CurrentProject, ProjectHostGuard } from '../../projects/host.guards.js';
import type { ProjectContext } from '../../projects/project-context.js';
import { AccessTokenGuard, CurrentClaims, UserAuthGuard } from '../../user-auth/http/user-auth.guards.js';
import type { AccessClaims } from '../../user-auth/tokens/access-tokens.js';
import { McpGrants } from './mcp-grants.js';

/**
 * The signed-in user's MCP clients on the project host (their app's own access token, as for
 * /api/user/me): list them, and revoke one (its tokens stop working at once; the next connection
 * asks for consent again).
 */
@ApiExcludeController()
@UseGuards(ProjectHostGuard, UserAuthGuard, AccessTokenGuard)
@Controller('api/user/mcp/clients')
export class McpGrantsController {
  constructor(private readonly grants: McpGrants) {}

  @Get()
  async list(@CurrentProject() ctx: ProjectContext, @CurrentClaims() claims: AccessClaims) {
    return { clients: await this.grants.list(ctx, claims.sub) };
  }

  @Delete(':clientId')
  @HttpCode(204)
  async revoke(
    @CurrentProject() ctx: ProjectContext,
    @CurrentClaims() claims: AccessClaims,
    @Param('clientId') clientId: string,
  ): Promise<void> {
    if (!(await this.grants.revoke(ctx, claims.sub, clientId))) throw new AuthError(AuthErrorCode.NotFound);
  }
}
