import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { DependencyProbe, type ProbeResult } from './dependency-probe.js';

export const HEALTH_OPTIONS = Symbol('HEALTH_OPTIONS');
export const HEALTH_EXTRAS = Symbol('HEALTH_EXTRAS');

export interface HealthOptions {
  service: string;
  version: string;
  postgresUrl: string;
  redisUrl: string;
}

/** Adds app-specific fields (e.g. the runner's queue snapshot) to the health body. */
export interface HealthExtras {
  collect(): Promise<Record<string, unknown>>;
}

export interface HealthReport {
  status: 'ok' | 'degraded';
  service: string;
  version: string;
  uptimeSeconds: number;
  checks: { postgres: ProbeResult; redis: ProbeResult };
  [extra: string]: unknown;
}

@Injectable()
export class HealthService implements OnApplicationShutdown {
  private readonly probe: DependencyProbe;
  private readonly started = Date.now();

  constructor(
    @Inject(HEALTH_OPTIONS) private readonly options: HealthOptions,
    @Inject(HEALTH_EXTRAS) private readonly extras: HealthExtras | null,
  ) {
    this.probe = new DependencyProbe(options.postgresUrl, options.redisUrl);
  }

  /**
   * Liveness plus dependency reachability. The process is alive whenever it answers, so callers
   * read `status` (ok/degraded) and `checks`; readiness probes use `ready`.
   */
  async report(): Promise<HealthReport> {
    const [postgres, redis, extra] = await Promise.all([
      this.probe.postgres(),
      this.probe.redisPing(),
      this.extras?.collect().catch((error: Error) => ({ extrasError: error.message })) ?? {},
    ]);
    const ok = postgres.status === 'up' && redis.status === 'up';
    return {
      status: ok ? 'ok' : 'degraded',
      service: this.options.service,
      version: this.options.version,
      uptimeSeconds: Math.round((Date.now() - this.started) / 1000),
      checks: { postgres, redis },
      ...extra,
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.probe.close();
  }
}
