import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import {
  BrowserPool,
  DEFAULT_VIEWPORT,
  DEFAULT_XVFB_PATH,
  EncoderPool,
  type BrowserNetworkOptions,
  connectHostedBrowser,
  findXvfb,
  launchLocalBrowser,
  type BrowserSession,
  type VideoSource,
  VirtualDisplay,
} from '@suite/browser-agent';
import { createHostResolver, EgressPolicy } from '@suite/egress-policy';
import type { BrowserWorkerConfig } from '../browser-worker.config.js';
import { BROWSER_WORKER_CONFIG } from '../worker.tokens.js';
import { InfrastructureError } from './agent-runner.js';

export type BrowserEnvName = 'local_browser' | 'hosted_browser';

/**
 * One job slot of the `x11grab` capture: a headful browser on a virtual display of its own, one
 * job at a time (ffmpeg grabs whatever window is on top of the display).
 */
interface DisplaySlot {
  pool: BrowserPool;
  /** The slot's display, once started (closed when the worker stops). */
  display: () => Promise<VirtualDisplay | undefined>;
  /** Handed to an acquire that has not got its session yet. */
  reserved: boolean;
}

/** How often an acquire looks again for a free slot while every one is busy or still recording. */
const SLOT_POLL_MS = 10;

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
  /** How local browsers' videos are captured (VIDEO_CAPTURE, or `browser` when x11grab cannot run here). */
  readonly localCapture: VideoSource;
  private readonly slots: DisplaySlot[] = [];

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
    this.localCapture = config.VIDEO_CAPTURE;
    if (config.VIDEO_CAPTURE === 'x11grab' && !findXvfb(config.XVFB_PATH ?? DEFAULT_XVFB_PATH)) {
      this.localCapture = 'browser';
      this.logger.warn(
        `VIDEO_CAPTURE=x11grab but there is no Xvfb at ${config.XVFB_PATH ?? DEFAULT_XVFB_PATH}: videos are recorded in the browser instead (headless Chromium's recorder, or its screencast); install xvfb to capture outside the browser`,
      );
    }
  }

  /** The video source of a job in `env`'s browser (hosted browsers record in the browser). */
  videoSource(env: BrowserEnvName): VideoSource {
    return env === 'local_browser' ? this.localCapture : 'browser';
  }

  async acquire(env: BrowserEnvName): Promise<BrowserSession> {
    try {
      if (env === 'local_browser' && this.localCapture === 'x11grab') return await this.acquireSlot();
      return await this.pool(env).acquire();
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

  /**
   * A session in a free display slot: no job in it and its last recording done (the session is
   * closed only once the recorder let go of the page). A worker has WORKER_CONCURRENCY slots.
   */
  private async acquireSlot(): Promise<BrowserSession> {
    for (;;) {
      const slot = this.freeSlot();
      if (slot) {
        slot.reserved = true;
        try {
          return await slot.pool.acquire();
        } finally {
          slot.reserved = false;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, SLOT_POLL_MS));
    }
  }

  private freeSlot(): DisplaySlot | undefined {
    const free = this.slots.find((s) => !s.reserved && s.pool.activeSessions === 0);
    if (free || this.slots.length >= this.config.WORKER_CONCURRENCY) return free;
    let display: Promise<VirtualDisplay> | undefined;
    // A display that died (killed, out of memory) is started again with the slot's next browser.
    const liveDisplay = async (): Promise<VirtualDisplay> => {
      const current = await display?.catch(() => undefined);
      if (current?.alive) return current;
      display = VirtualDisplay.start({
        ...DEFAULT_VIEWPORT,
        ...(this.config.XVFB_PATH ? { xvfbPath: this.config.XVFB_PATH } : {}),
      });
      return display;
    };
    const pool = new BrowserPool({
      open: async () =>
        launchLocalBrowser({
          ...(this.config.CHROMIUM_PATH ? { executablePath: this.config.CHROMIUM_PATH } : {}),
          warn: (message) => this.logger.warn(message),
          sandbox: this.config.CHROMIUM_SANDBOX,
          display: await liveDisplay(),
        }),
      network: this.network,
      // The slot's next context and page (its window filling the screen) are made while it is idle.
      spare: true,
    });
    const slot: DisplaySlot = { pool, reserved: false, display: async () => display?.catch(() => undefined) };
    this.slots.push(slot);
    return slot;
  }

  async onApplicationShutdown(): Promise<void> {
    this.encoders.close();
    await Promise.allSettled(
      [...this.pools.values(), ...this.slots.map((s) => s.pool)].map((pool) => pool.close()),
    );
    await Promise.allSettled(this.slots.map(async (s) => (await s.display())?.close()));
    this.logger.log('browsers closed');
  }
}
