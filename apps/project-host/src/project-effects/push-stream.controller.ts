import { Controller, Get, Header, HttpCode, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { CurrentProject, ProjectHostGuard, type ProjectRequest } from '../projects/host.guards.js';
import type { ProjectContext } from '../projects/project-context.js';
import { PushStreams } from './push-streams.service.js';

/**
 * `GET /api/_platform/push`: the signed-in user's push stream (server-sent events), and
 * `POST /api/_platform/push/ticket`: a single-use ticket to open one with (EventSource cannot send
 * headers). Project code cannot shadow them: files and folders under api/ that start with `_` are
 * never routes. A stream ends when the access token expires (`event: expired`: reconnect with a
 * fresh one) and when its session ends (`event: ended`).
 */
@UseGuards(ProjectHostGuard)
@Controller()
export class PushStreamController {
  constructor(private readonly streams: PushStreams) {}

  @Post('api/_platform/push/ticket')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  ticket(
    @CurrentProject() ctx: ProjectContext,
    @Req() request: ProjectRequest,
  ): Promise<{ ticket: string; expiresIn: number }> {
    return this.streams.issueTicket(ctx, request.headers.authorization);
  }

  @Get('api/_platform/push')
  async stream(
    @CurrentProject() ctx: ProjectContext,
    @Req() request: ProjectRequest,
    @Res() reply: FastifyReply,
    @Query('ticket') ticket?: unknown,
    @Query('access_token') accessToken?: unknown,
  ): Promise<void> {
    const grant = await this.streams.authenticate(ctx, {
      authorization: request.headers.authorization,
      ticket,
      accessToken,
    });
    reply.hijack();
    await this.streams.open(ctx, grant, reply.raw);
  }
}
