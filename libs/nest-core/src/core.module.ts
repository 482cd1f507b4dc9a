import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { collectProcessMetrics } from '@suite/telemetry';
import { LoggerModule } from 'nestjs-pino';
import { HealthModule } from './health/health.module.js';
import type { HealthExtras } from './health/health.service.js';
import { nestPinoParams } from './logging/logger.options.js';
import { METRICS_OPTIONS, MetricsController } from './observability/metrics.controller.js';

export interface CoreModuleOptions {
  service: string;
  version: string;
  databaseUrl: string;
  redisUrl: string;
  logLevel: string;
  logFormat: 'json' | 'pretty';
  healthExtras?: { useClass: Type<HealthExtras>; imports?: DynamicModule['imports'] };
  /** false for processes without an HTTP app; they serve HealthService themselves. */
  healthController?: boolean;
  /**
   * GET /metrics (Prometheus) on the app's HTTP port; default true (config METRICS_ENABLED).
   * Processes without an HTTP app serve `renderMetrics()` themselves.
   */
  metrics?: boolean;
  /** METRICS_TOKEN: the bearer /metrics needs; unset, it answers loopback clients only. */
  metricsToken?: string;
}

/** Logging, health and metrics for one app of the suite. */
@Module({})
export class CoreModule {
  static forRoot(options: CoreModuleOptions): DynamicModule {
    const metrics = options.metrics ?? true;
    if (metrics) collectProcessMetrics();
    return {
      module: CoreModule,
      global: true,
      controllers: metrics && (options.healthController ?? true) ? [MetricsController] : [],
      providers: [{ provide: METRICS_OPTIONS, useValue: { token: options.metricsToken } }],
      imports: [
        LoggerModule.forRoot(
          nestPinoParams({
            service: options.service,
            level: options.logLevel,
            pretty: options.logFormat === 'pretty',
          }),
        ),
        HealthModule.register(
          {
            service: options.service,
            version: options.version,
            postgresUrl: options.databaseUrl,
            redisUrl: options.redisUrl,
          },
          options.healthExtras,
          options.healthController ?? true,
        ),
      ],
      exports: [HealthModule],
    };
  }
}
