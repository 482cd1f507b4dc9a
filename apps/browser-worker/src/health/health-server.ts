import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { JobQueue, JobRepository } from '@suite/jobs';
import { HealthService } from '@suite/nest-core';
import { renderMetrics } from '@suite/telemetry';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserWorkerConfig } from '../browser-worker.config.js';
import { BROWSER_WORKER_CONFIG } from '../worker.tokens.js';
import { observeRunner } from './runner-metrics.js';

/**
 * The worker has no HTTP app; this bare listener answers GET /health (liveness + dependencies),
 * GET /health/ready (503 while Postgres or Redis is down) for probes and, unless METRICS_ENABLED
 * is false, GET /metrics for Prometheus (internal: never routed by an ingress).
 */
@Injectable()
export class HealthServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(HealthServer.name);
  private server?: Server;
  private stopObserving?: () => void;

  constructor(
    private readonly health: HealthService,
    private readonly jobs: JobRepository,
    private readonly queue: JobQueue,
    @Inject(BROWSER_WORKER_CONFIG) private readonly config: BrowserWorkerConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.METRICS_ENABLED) this.stopObserving = observeRunner(this.jobs, this.queue);
    if (this.config.HEALTH_PORT === 0) return;
    const server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (req.method === 'GET' && path === '/metrics' && this.config.METRICS_ENABLED) {
        renderMetrics().then(
          ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
          () => res.writeHead(500).end(),
        );
        return;
      }
      if (req.method !== 'GET' || (path !== '/health' && path !== '/health/ready')) {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ detail: 'Not Found' }));
        return;
      }
      this.health.report().then(
        (report) => {
          const status = path === '/health/ready' && report.status !== 'ok' ? 503 : 200;
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(report));
        },
        () => res.writeHead(500).end(),
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.config.HEALTH_PORT, this.config.HOST, resolve);
    });
    this.server = server;
    const { port } = server.address() as AddressInfo;
    this.logger.log(`health on http://${this.config.HOST}:${port}/health`);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopObserving?.();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
