import { All, Controller, Logger, Req, Res, UseGuards } from '@nestjs/common';
import { AuthError, AuthErrorCode, RunnerError, RunnerErrorCode } from '@suite/errors';
import {
  ActiveDeployments,
  failedForConnections,
  failedForReadOnly,
  SandboxError,
  ProjectSandboxes,
  type ApiResult,
  type RouteAuth,
  type SandboxUser,
} from '@suite/project-runtime';
import type { FastifyReply } from 'fastify';
import { isBinaryBody, RouteBody } from '../http/request-bodies.js';
import { CurrentProject, ProjectHostGuard, type ProjectRequest } from '../projects/host.guards.js';
import type { ProjectContext } from '../projects/project-context.js';
import { AccessTokens } from '../user-auth/tokens/access-tokens.js';
import { audienceOf, RefreshSessions } from '../user-auth/tokens/refresh-sessions.js';
import { filterProjectHeaders, isProjectStatus } from './project-response-headers.js';

/**
 * The project's own APIs: `api/<path>.ts` answers `/api/<path>` (every method unless the
 * definition lists `methods`). The reserved /api/user routes are static routes and win; anything
 * else under /api/user is never project code.
 */
@UseGuards(ProjectHostGuard)
@Controller()
export class ProjectApiController {
  private readonly logger = new Logger('project-api');

  constructor(
    private readonly active: ActiveDeployments,
    private readonly sandboxes: ProjectSandboxes,
    private readonly tokens: AccessTokens,
    private readonly sessions: RefreshSessions,
  ) {}

  @All(['api', 'api/*'])
  @RouteBody('project-api')
  async handle(
    @CurrentProject() ctx: ProjectContext,
    @Req() request: ProjectRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const path = request.url.split('?')[0]!.replace(/\/+$/, '') || '/';
    if (path === '/api/user' || path.startsWith('/api/user/')) throw new AuthError(AuthErrorCode.NotFound);
    const deployment = await this.active.get(ctx.project.id);
    const route = deployment?.routes.get(path);
    const code = route && deployment?.bundles[route.entry];
    if (!deployment || !route || !code) throw new AuthError(AuthErrorCode.NotFound);
    if (route.methods && !route.methods.includes(request.method)) {
      void reply
        .status(405)
        .header('allow', route.methods.join(', '))
        .send({ code: 'method_not_allowed', message: `${request.method} is not allowed here` });
      return;
    }
    const user = await this.userOf(ctx, route.auth, request.headers.authorization);

    let result: ApiResult;
    try {
      result = (await this.sandboxes.call(
        ctx.project.id,
        {
          op: 'api',
          key: `${deployment.id}:${route.entry}`,
          code,
          request: {
            method: request.method,
            path,
            query: (request.query ?? {}) as Record<string, string>,
            headers: Object.fromEntries(
              Object.entries(request.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]),
            ),
            // Bytes travel as base64 (a Buffer would become a JSON array of numbers on the channel).
            ...(isBinaryBody(request.body) ? { bodyBase64: request.body.base64 } : { body: request.body }),
          },
          user,
          env: deployment.env,
        },
        route.timeoutMs,
      )) as ApiResult;
    } catch (error) {
      this.logger.warn(
        { projectId: ctx.project.id, path, err: (error as Error).message },
        'project API failed',
      );
      const reason = error instanceof SandboxError ? error.reason : undefined;
      if (reason === 'unavailable' || reason === 'busy') {
        // The host cannot run code now; the caller may retry (the reason is in the host's log).
        throw new AuthError(AuthErrorCode.ProjectCodeUnavailable, undefined, { retryAfterSeconds: 5 });
      }
      if (failedForConnections(error)) {
        // ctx.db found every database connection of this host taken, and the code let it through.
        throw new RunnerError(
          RunnerErrorCode.TemporarilyUnavailable,
          'Every database connection of this server is in use; try again shortly.',
          { retryAfterSeconds: 2 },
        );
      }
      if (failedForReadOnly(error)) {
        // ctx.db met the project's database read-only (it is moving), and the code let it through.
        throw new RunnerError(
          RunnerErrorCode.TemporarilyUnavailable,
          'This project is read-only for a moment while its data moves; try again shortly.',
          { retryAfterSeconds: 5 },
        );
      }
      const overBudget = reason === 'timeout' || reason === 'cpu';
      void reply.status(overBudget ? 504 : 500).send({
        code: 'internal',
        message:
          reason === 'cpu'
            ? 'The API used more CPU time than allowed'
            : overBudget
              ? 'The API did not answer in time'
              : 'The API failed',
      });
      return;
    }
    // Headers that would reach other hosts, or that the platform owns, never leave (names logged).
    const { headers, dropped } = filterProjectHeaders(result.headers);
    if (dropped.length > 0) {
      this.logger.warn({ projectId: ctx.project.id, path, dropped }, 'project response headers dropped');
    }
    if (!isProjectStatus(result.status)) {
      const status = typeof result.status === 'number' ? result.status : typeof result.status;
      this.logger.warn({ projectId: ctx.project.id, path, status }, 'project API status refused');
      void reply.status(500).send({ code: 'internal', message: 'The API answered with an invalid status' });
      return;
    }
    void reply.status(result.status).headers(headers).send(result.body);
  }

  /** 'required': a live session's user or 401 before any project code runs; 'optional': user or null. */
  private async userOf(
    ctx: ProjectContext,
    auth: RouteAuth,
    header: string | undefined,
  ): Promise<SandboxUser | null> {
    if (auth !== 'required' && auth !== 'optional') return null;
    const token = typeof header === 'string' ? /^Bearer[ ]+([^\s]+)\s*$/i.exec(header)?.[1] : undefined;
    const claims = token ? await this.tokens.verify(audienceOf(ctx), token) : undefined;
    const live = claims ? await this.sessions.isLive(ctx, claims) : false;
    if (claims && live)
      return {
        id: claims.sub,
        email: claims.email,
        name: claims.name,
        picture: claims.picture,
        email_verified: claims.email_verified,
      };
    if (auth === 'required') {
      throw new AuthError(
        AuthErrorCode.Unauthorized,
        token ? 'The access token is invalid or expired' : 'Send Authorization: Bearer <accessToken>',
      );
    }
    return null;
  }
}
