import { All, Controller, Get, Logger, Options, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { SUITE_VERSION } from '@suite/config';
import { ActiveDeployments, type ActiveDeployment, type SandboxUser } from '@suite/project-runtime';
import type { FastifyReply } from 'fastify';
import { CurrentProject, ProjectHostGuard, type ProjectRequest } from '../projects/host.guards.js';
import type { ProjectContext } from '../projects/project-context.js';
import { RefreshSessions } from '../user-auth/tokens/refresh-sessions.js';
import { McpAccessTokens } from './mcp-access-tokens.js';
import { allowCrossOrigin, preflight } from './mcp-cors.js';
import { bindingOf, hostOrigin, PROTECTED_RESOURCE_PATH } from './mcp-origin.js';
import { MCP_OFF_MESSAGE, mcpIsOff } from './mcp-switch.js';
import { McpToolCatalog } from './mcp-tool-catalog.js';
import { OAuthError } from './oauth/oauth-error.js';

const jsonRpcError = (code: number, message: string) => ({
  jsonrpc: '2.0',
  id: null,
  error: { code, message },
});

/**
 * `/mcp` of every project host: the deployment's `mcp/` tools over Streamable HTTP, stateless (a
 * server and transport per request, as in agent-gateway), on the official SDK's low-level Server
 * (the tools' schemas are JSON Schema from project code, not zod). The caller is the user of an
 * MCP access token bound to this resource (RFC 8707); without one, a deployment with any
 * `auth: 'required'` tool answers 401 with the RFC 9728 pointer, which starts the client's OAuth.
 *
 * DNS rebinding: the project is resolved from Host, so only the project's own names reach here;
 * credentials are Bearer tokens, never cookies, so a foreign Origin gains nothing.
 */
@ApiExcludeController()
@UseGuards(ProjectHostGuard)
@Controller()
export class McpController {
  private readonly logger = new Logger('project-mcp');

  constructor(
    private readonly active: ActiveDeployments,
    private readonly catalog: McpToolCatalog,
    private readonly tokens: McpAccessTokens,
    private readonly sessions: RefreshSessions,
  ) {}

  /** RFC 9728 protected resource metadata of `<origin>/mcp` (also at the path-suffixed name). */
  @Get([PROTECTED_RESOURCE_PATH.slice(1), `${PROTECTED_RESOURCE_PATH.slice(1)}/mcp`])
  resourceMetadata(
    @CurrentProject() ctx: ProjectContext,
    @Req() request: ProjectRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    allowCrossOrigin(reply);
    if (mcpIsOff(ctx)) {
      void reply.status(404).header('cache-control', 'no-store');
      return OAuthError.mcpOff().body;
    }
    const origin = hostOrigin(ctx, request);
    return {
      resource: `${origin}/mcp`,
      authorization_servers: [origin],
      bearer_methods_supported: ['header'],
      resource_name: ctx.project.name ?? ctx.project.slug,
    };
  }

  @Options([PROTECTED_RESOURCE_PATH.slice(1), `${PROTECTED_RESOURCE_PATH.slice(1)}/mcp`])
  preflight(@Res() reply: FastifyReply): void {
    preflight(reply);
  }

  @All('mcp')
  async handle(
    @CurrentProject() ctx: ProjectContext,
    @Req() request: ProjectRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    if (request.method === 'OPTIONS') return preflight(reply);
    allowCrossOrigin(reply);
    if (mcpIsOff(ctx)) {
      // Before any token check: a token issued while it was on calls nothing now.
      void reply.status(404).send(jsonRpcError(-32000, MCP_OFF_MESSAGE));
      return;
    }
    const deployment = await this.active.get(ctx.project.id);
    const caller = await this.callerOf(ctx, request);
    const needsUser = [...(deployment?.tools.values() ?? [])].some((tool) => tool.auth === 'required');
    if (caller === 'invalid' || (caller === null && needsUser)) {
      const metadata = `${hostOrigin(ctx, request)}${PROTECTED_RESOURCE_PATH}`;
      const challenge =
        caller === 'invalid'
          ? `Bearer error="invalid_token", error_description="The access token is invalid, expired or revoked", resource_metadata="${metadata}"`
          : `Bearer resource_metadata="${metadata}"`;
      void reply
        .status(401)
        .header('www-authenticate', challenge)
        .send(
          jsonRpcError(-32001, 'Sign in: send Authorization: Bearer <access token> (see WWW-Authenticate)'),
        );
      return;
    }
    if (request.method !== 'POST') {
      // Stateless: no standalone SSE stream (GET), no session to end (DELETE).
      void reply
        .status(405)
        .header('allow', 'POST')
        .send(jsonRpcError(-32000, 'Method not allowed: use POST'));
      return;
    }
    const server = this.serverFor(ctx, deployment, caller);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    reply.hijack();
    // The transport writes the raw response: the CORS headers set on the reply go with it.
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) reply.raw.setHeader(name, value);
    }
    reply.raw.on('close', () => {
      void transport.close().catch(() => undefined);
      void server.close().catch(() => undefined);
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (error) {
      this.logger.error({ err: error, projectId: ctx.project.id }, 'MCP request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(JSON.stringify(jsonRpcError(-32603, 'Internal error')));
      }
    }
  }

  private serverFor(
    ctx: ProjectContext,
    deployment: ActiveDeployment | null,
    user: SandboxUser | null,
  ): Server {
    const server = new Server(
      { name: ctx.project.slug, title: ctx.project.name ?? ctx.project.slug, version: SUITE_VERSION },
      { capabilities: { tools: { listChanged: false } } },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: deployment ? this.catalog.list(deployment) : [],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (call) => {
      const tool = deployment?.tools.get(call.params.name);
      if (!deployment || !tool)
        throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${call.params.name}`);
      return this.catalog.call(ctx.project.id, deployment, tool, call.params.arguments ?? {}, user);
    });
    return server;
  }

  /** The user of a valid MCP access token of a live grant; null without a token; 'invalid' otherwise. */
  private async callerOf(
    ctx: ProjectContext,
    request: ProjectRequest,
  ): Promise<SandboxUser | null | 'invalid'> {
    const header = request.headers.authorization;
    if (header === undefined) return null;
    const token = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header)?.[1];
    if (!token) return 'invalid';
    const claims = await this.tokens.verify(bindingOf(ctx, request), token);
    if (!claims || !(await this.sessions.isLive(ctx, claims))) return 'invalid';
    return {
      id: claims.sub,
      email: claims.email,
      name: claims.name,
      picture: claims.picture,
      email_verified: claims.email_verified,
    };
  }
}
