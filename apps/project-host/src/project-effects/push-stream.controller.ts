import { Controller, Get, Logger, Query, Req, Res, UseGuards } from '@nestjs/common';
import { AuthError, AuthErrorCode } from '@suite/errors';
import { SseWriter } from '@suite/nest-core';
import type { FastifyReply } from 'fastify';
import { CurrentProject, ProjectHostGuard, type ProjectRequest } from '../projects/host.guards.js';
import type { ProjectContext } from '../projects/project-context.js';
import { AccessTokens } from '../user-auth/tokens/access-tokens.js';
import { audienceOf, RefreshSessions } from '../user-auth/tokens/refresh-sessions.js';
import { ProjectPush, type PushMessage } from '@suite/project-runtime';

/**
 * `GET /api/_platform/push`: the signed-in user's push stream (server-sent events). Project code
 * cannot shadow it: files and folders under api/ that start with `_` are never routes. The stream
 * ends when the access token expires; the client reconnects with a fresh one.
 */
@UseGuards(ProjectHostGuard)
@Controller()
export class PushStreamController {
  private readonly logger = new Logger('project-push');

  constructor(
    private readonly push: ProjectPush,
    private readonly tokens: AccessTokens,
    private readonly sessions: RefreshSessions,
  ) {}

  @Get('api/_platform/push')
  async stream(
    @CurrentProject() ctx: ProjectContext,
    @Req() request: ProjectRequest,
    @Res() reply: FastifyReply,
    @Query('access_token') queryToken?: string,
  ): Promise<void> {
    const header = request.headers.authorization;
    // EventSource cannot send headers, hence the query parameter (prefer the header elsewhere).
    const token =
      (typeof header === 'string' ? /^Bearer[ ]+([^\s]+)\s*$/i.exec(header)?.[1] : undefined) ?? queryToken;
    const claims = token ? await this.tokens.verify(audienceOf(ctx), token) : undefined;
    if (!claims || !(await this.sessions.isLive(ctx, claims))) {
      throw new AuthError(
        AuthErrorCode.Unauthorized,
        token ? 'The access token is invalid or expired' : 'Send Authorization: Bearer <accessToken>',
      );
    }

    reply.hijack();
    const sse = new SseWriter(reply.raw);
    const stop = await this.push.subscribe(ctx.project.id, claims.sub, (message: PushMessage) =>
      sse.send(message, 'push'),
    );
    const expiry = setTimeout(
      () => {
        sse.send({}, 'expired');
        sse.end();
      },
      Math.max(0, claims.exp * 1000 - Date.now()),
    );
    reply.raw.on('close', () => {
      clearTimeout(expiry);
      stop();
    });
    sse.send({ userId: claims.sub }, 'ready');
    this.logger.debug({ projectId: ctx.project.id }, 'push stream opened');
  }
}
