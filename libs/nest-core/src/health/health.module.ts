import { Module, type DynamicModule, type Provider, type Type } from '@nestjs/common';
import { HealthController } from './health.controller.js';
import {
  HEALTH_EXTRAS,
  HEALTH_OPTIONS,
  HealthService,
  type HealthExtras,
  type HealthOptions,
} from './health.service.js';

@Module({})
export class HealthModule {
  /** `withController: false` for processes without an HTTP app (the worker serves health itself). */
  static register(
    options: HealthOptions,
    extras?: { useClass: Type<HealthExtras>; imports?: DynamicModule['imports'] },
    withController = true,
  ): DynamicModule {
    const providers: Provider[] = [
      { provide: HEALTH_OPTIONS, useValue: options },
      extras
        ? { provide: HEALTH_EXTRAS, useClass: extras.useClass }
        : { provide: HEALTH_EXTRAS, useValue: null },
      HealthService,
    ];
    return {
      module: HealthModule,
      imports: extras?.imports ?? [],
      controllers: withController ? [HealthController] : [],
      providers,
      exports: [HealthService],
    };
  }
}
