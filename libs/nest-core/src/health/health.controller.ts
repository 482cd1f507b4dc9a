import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { HealthService, type HealthReport } from './health.service.js';

@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  /** Liveness and dependency reachability; always 200 while the process can answer. */
  @Get()
  @HttpCode(200)
  report(): Promise<HealthReport> {
    return this.health.report();
  }

  /** Readiness: 503 while Postgres or Redis is unreachable, so load balancers stop routing here. */
  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthReport> {
    const report = await this.health.report();
    reply.status(report.status === 'ok' ? 200 : 503);
    return report;
  }
}
