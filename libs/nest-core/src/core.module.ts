import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { HealthModule } from './health/health.module.js';
import type { HealthExtras } from './health/health.service.js';
import { nestPinoParams } from './logging/logger.options.js';

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
}

/** Logging and health for one app of the suite. */
@Module({})
export class CoreModule {
  static forRoot(options: CoreModuleOptions): DynamicModule {
    return {
      module: CoreModule,
      global: true,
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
