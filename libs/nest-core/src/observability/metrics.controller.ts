import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { renderMetrics } from '@suite/telemetry';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { metricsAccess } from './metrics-access.js';

export const METRICS_OPTIONS = Symbol('METRICS_OPTIONS');

export interface MetricsOptions {
  /** METRICS_TOKEN: the bearer a scraper sends; unset, loopback clients only (metrics-access.ts). */
  token?: string;
}

/**
 * Prometheus scrape endpoint (text exposition format), for Prometheus scraping the pod directly.
 * Metrics are internal: never through a proxy, and only to the scraper (metrics-access.ts).
 */
@Controller('metrics')
export class MetricsController {
  constructor(@Inject(METRICS_OPTIONS) private readonly options: MetricsOptions) {}

  @Get()
  async metrics(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    void reply.header('Cache-Control', 'no-store');
    const access = metricsAccess(
      { socketAddress: request.raw.socket.remoteAddress, headers: request.headers },
      this.options.token,
    );
    // Answered here, in one plain shape for every app: /metrics is not part of any app's API.
    if (!access.ok) {
      if (access.status === 401) void reply.header('WWW-Authenticate', 'Bearer');
      void reply.status(access.status).send({ detail: access.message });
      return;
    }
    const { contentType, body } = await renderMetrics();
    void reply.header('Content-Type', contentType).send(body);
  }
}
