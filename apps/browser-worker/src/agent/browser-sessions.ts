import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import {
  BrowserPool,
  EncoderPool,
  type BrowserNetworkOptions,
  connectHostedBrowser,
  launchLocalBrowser,
  type BrowserSession,
} from '@suite/browser-agent';
import { createHostResolver, EgressPolicy } from '@suite/egress-policy';
import type { BrowserWorkerConfig } from '../browser-worker.config.js';
import { BROWSER_WORKER_CONFIG } from '../worker.tokens.js';
import { InfrastructureError } from './agent-runner.js';

export type BrowserEnvName = 'local_browser' | 'hosted_browser';

/**
 * One warm browser per worker and environment; each job gets an isolated context. A crashed or
 * disconnected browser is replaced on the next job.
 */
@Injectable()
export class BrowserSessions implements OnApplicationShutdown {
  private readonly logger = new Logger('browsers');
  private readonly pools = new Map<BrowserEnvName, BrowserPool>();
  /**
   * Video encoders started ahead of need: a recording does not wait for ffmpeg to start. Two when
   * jobs run side by side, whose videos are then often finished close together.
   */
  readonly encoders: EncoderPool;
  private readonly network: BrowserNetworkOptions;

  constructor(@Inject(BROWSER_WORKER_CONFIG) private readonly config: BrowserWorkerConfig) {
    this.encoders = new EncoderPool(undefined, config.WORKER_CONCURRENCY > 1 ? 2 : 1);
    this.network = {
      policy: new EgressPolicy({
        mode: config.BROWSER_NETWORK_POLICY,
        allowedHosts: config.BROWSER_ALLOWED_HOSTS,
        modeSetting: 'BROWSER_NETWORK_POLICY',
        allowListSetting: 'BROWSER_ALLOWED_HOSTS',
        subject: 'browser network',
      }),
      resolve: createHostResolver(config.BROWSER_DNS_SERVERS),
      allowDownloads: config.BROWSER_ALLOW_DOWNLOADS,
    };
    const allowed = config.BROWSER_ALLOWED_HOSTS.length ? config.BROWSER_ALLOWED_HOSTS.join(', ') : 'none';
    this.logger.log(
      `job browsers: BROWSER_NETWORK_POLICY=${config.BROWSER_NETWORK_POLICY}, BROWSER_ALLOWED_HOSTS: ${allowed}, downloads ${config.BROWSER_ALLOW_DOWNLOADS ? 'allowed' : 'refused'}`,
    );
  }

  async acquire(env: BrowserEnvName): Promise<BrowserSession> {
    const pool = this.pool(env);
    try {
      return await pool.acquire();
    } catch (error) {
      throw new InfrastructureError(
        `could not open the ${env.replace('_', ' ')}: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
  }

  private pool(env: BrowserEnvName): BrowserPool {
    let pool = this.pools.get(env);
    if (!pool) {
      const hosted = this.config.HOSTED_BROWSER_WS_URL;
      if (env === 'hosted_browser' && !hosted) {
        throw new InfrastructureError(
          'hosted_browser was requested but HOSTED_BROWSER_WS_URL is not set on this worker',
        );
      }
      pool =
        env === 'hosted_browser'
          ? // A hosted browser belongs to its provider: disconnect, never close it.
            new BrowserPool({
              open: () => connectHostedBrowser(hosted!),
              release: async (b) => void (await b.disconnect()),
              network: { ...this.network, hosted: true },
            })
          : new BrowserPool({
              open: () =>
                launchLocalBrowser({
                  ...(this.config.CHROMIUM_PATH ? { executablePath: this.config.CHROMIUM_PATH } : {}),
                  warn: (message) => this.logger.warn(message),
                  sandbox: this.config.CHROMIUM_SANDBOX,
                }),
              network: this.network,
              // The next job's context and page are made while this worker is idle.
              spare: true,
            });
      this.pools.set(env, pool);
    }
    return pool;
  }

  async onApplicationShutdown(): Promise<void> {
    this.encoders.close();
    await Promise.allSettled([...this.pools.values()].map((pool) => pool.close()));
    this.logger.log('browsers closed');
  }
}
