import { Injectable, Logger } from '@nestjs/common';
import type { PageQueryDto } from '@suite/contracts';
import { isUuid } from '@suite/db';
import { AuthError, AuthErrorCode } from '@suite/errors';
import { ActiveDeployments, type DeployedMcpTool } from '@suite/project-runtime';
import { type McpConnectionView, McpGrants } from '../mcp/oauth/mcp-grants.js';
import type { ProjectContext } from '../projects/project-context.js';
import { ProjectContexts } from './project-contexts.js';
import { toPage } from './project-input.js';
import type { Page } from './project.view.js';

/** A deployed MCP tool as the control plane shows it (what `tools/list` gives, plus its auth). */
export interface McpToolView {
  name: string;
  title: string | null;
  description: string;
  /** As in defineMcpTool: `'required'`, `'optional'` or false. */
  auth: 'required' | 'optional' | false;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown> | null;
}

export interface McpToolsView {
  mcpEnabled: boolean;
  /** The active deployment's version; null when nothing is deployed. */
  deploymentVersion: number | null;
  tools: McpToolView[];
}

const toolView = (tool: DeployedMcpTool): McpToolView => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  auth: tool.auth === 'false' ? false : tool.auth,
  inputSchema: tool.inputSchema,
  outputSchema: tool.outputSchema,
});

/**
 * The control plane's view of a project's MCP server: the tools its active deployment serves,
 * the clients its users connected, and revoking one user's grant of a client. Revocation is the
 * end user's own (`McpGrants.revoke`: the consent forgotten, every refresh token of that client
 * and user revoked, access tokens refused at once), so the grant tables keep one writer.
 */
@Injectable()
export class ProjectMcpService {
  private readonly logger = new Logger('control-plane');

  constructor(
    private readonly contexts: ProjectContexts,
    private readonly active: ActiveDeployments,
    private readonly grants: McpGrants,
  ) {}

  async tools(projectId: string): Promise<McpToolsView> {
    const ctx = await this.contexts.of(projectId);
    const deployment = await this.active.get(ctx.project.id);
    return {
      mcpEnabled: ctx.auth.mcpEnabled,
      deploymentVersion: deployment?.version ?? null,
      tools: [...(deployment?.tools.values() ?? [])]
        .sort((a, b) => a.name.localeCompare(b.name))
        .map(toolView),
    };
  }

  async clients(projectId: string, query: PageQueryDto): Promise<Page<McpConnectionView>> {
    const ctx = await this.contexts.of(projectId);
    return this.page(ctx, query);
  }

  async clientsOfUser(
    projectId: string,
    userId: string,
    query: PageQueryDto,
  ): Promise<Page<McpConnectionView>> {
    const ctx = await this.contexts.of(projectId);
    await this.requireUser(ctx, userId);
    return this.page(ctx, query, userId);
  }

  async revoke(projectId: string, userId: string, clientId: string): Promise<void> {
    const ctx = await this.contexts.of(projectId);
    await this.requireUser(ctx, userId);
    if (!(await this.grants.revoke(ctx, userId, clientId))) {
      throw new AuthError(AuthErrorCode.NotFound, 'This user has not connected that MCP client.');
    }
    this.logger.log(
      { projectId: ctx.project.id, userId, clientId },
      'MCP client grant revoked from the control plane',
    );
  }

  private async page(
    ctx: ProjectContext,
    query: PageQueryDto,
    userId?: string,
  ): Promise<Page<McpConnectionView>> {
    const { page, pageSize } = toPage(query);
    const { total, items } = await this.grants.page(ctx, {
      userId,
      skip: (page - 1) * pageSize,
      take: pageSize,
    });
    return { items, page, pageSize, total };
  }

  private async requireUser(ctx: ProjectContext, userId: string): Promise<void> {
    const user = isUuid(userId)
      ? await ctx.tenant.user.findUnique({ where: { id: userId }, select: { id: true } })
      : null;
    if (!user) throw new AuthError(AuthErrorCode.NotFound, `No user has the id "${userId}" in this project.`);
  }
}
