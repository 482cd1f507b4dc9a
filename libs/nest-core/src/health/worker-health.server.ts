import {
  Inject,
  Injectable,
  Logger,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { renderMetrics } from '@suite/telemetry';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CoreModule } from '../core.module.js';
import { metricsAccess } from '../observability/metrics-access.js';
import { HealthService } from './health.service.js';

export const WORKER_HEALTH_OPTIONS = Symbol('WORKER_HEALTH_OPTIONS');

export interface WorkerHealthOptions {
  host: string;
  /** 0: no listener (e.g. many workers on one machine without ports). */
  port: number;
  metrics: boolean;
  /** METRICS_TOKEN: the bearer /metrics needs; unset, it answers loopback clients only. */
  metricsToken?: string;
}

/**
 * A worker (a NestJS application context) has no HTTP app; this bare listener answers GET /health
 * (liveness + dependencies), GET /health/ready (503 while Postgres or Redis is down) for probes and,
 * with `metrics`, GET /metrics for Prometheus (internal: never routed by an ingress).
 */
@Injectable()
export class WorkerHealthServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('health');
  private server?: Server;

  constructor(
    private readonly health: HealthService,
    @Inject(WORKER_HEALTH_OPTIONS) private readonly options: WorkerHealthOptions,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.options.port === 0) return;
    const server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (req.method === 'GET' && path === '/metrics' && this.options.metrics) {
        const access = metricsAccess(
          { socketAddress: req.socket.remoteAddress, headers: req.headers },
          this.options.metricsToken,
        );
        if (!access.ok) {
          res
            .writeHead(access.status, {
              'content-type': 'application/json',
              ...(access.status === 401 ? { 'www-authenticate': 'Bearer' } : {}),
            })
            .end(JSON.stringify({ detail: access.message }));
          return;
        }
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
      server.listen(this.options.port, this.options.host, resolve);
    });
    this.server = server;
    const { port } = server.address() as AddressInfo;
    this.logger.log(`health on http://${this.options.host}:${port}/health`);
  }

  async onApplicationShutdown(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** The settings every worker reads (serviceEnv and its HEALTH_PORT). */
export interface WorkerCoreConfig {
  DATABASE_URL: string;
  REDIS_URL: string;
  HOST: string;
  HEALTH_PORT: number;
  LOG_LEVEL: string;
  LOG_FORMAT: 'json' | 'pretty';
  METRICS_ENABLED: boolean;
  METRICS_TOKEN?: string;
}

/** CoreModule for a worker: logging, health and metrics, served by WorkerHealthServer on HEALTH_PORT. */
@Module({})
export class WorkerCoreModule {
  static forRoot(service: string, version: string, config: WorkerCoreConfig): DynamicModule {
    return {
      module: WorkerCoreModule,
      imports: [
        CoreModule.forRoot({
          service,
          version,
          databaseUrl: config.DATABASE_URL,
          redisUrl: config.REDIS_URL,
          logLevel: config.LOG_LEVEL,
          logFormat: config.LOG_FORMAT,
          metrics: config.METRICS_ENABLED,
          healthController: false,
        }),
      ],
      providers: [
        {
          provide: WORKER_HEALTH_OPTIONS,
          useValue: {
            host: config.HOST,
            port: config.HEALTH_PORT,
            metrics: config.METRICS_ENABLED,
            metricsToken: config.METRICS_TOKEN,
          },
        },
        WorkerHealthServer,
      ],
    };
  }
}
