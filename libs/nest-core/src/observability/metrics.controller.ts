import { Controller, Get, Header, NotFoundException, Req, Res } from '@nestjs/common';
import { renderMetrics } from '@suite/telemetry';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Prometheus scrape endpoint (text exposition format), for Prometheus scraping the pod directly.
 * Metrics are internal: a request that came through the ingress or another proxy (it carries
 * X-Forwarded-For or Forwarded) gets 404, so a catch-all ingress rule cannot publish them.
 */
@Controller('metrics')
export class MetricsController {
  @Get()
  @Header('Cache-Control', 'no-store')
  async metrics(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    if (request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined)
      throw new NotFoundException();
    const { contentType, body } = await renderMetrics();
    reply.header('Content-Type', contentType);
    return body;
  }
}
