import { Redis } from 'ioredis';
import pg from 'pg';

export interface ProbeResult {
  status: 'up' | 'down';
  latencyMs: number;
  error?: string;
}

/** Checks one dependency with a hard time limit, so a health call never hangs. */
async function timed(check: () => Promise<unknown>, timeoutMs: number): Promise<ProbeResult> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { status: 'up', latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    return {
      status: 'down',
      latencyMs: Math.round(performance.now() - started),
      error: (error as Error).message || String(error),
    };
  } finally {
    clearTimeout(timer);
  }
}

/** Long-lived, small connections used only for reachability checks. */
export class DependencyProbe {
  private readonly pool: pg.Pool;
  private readonly redis: Redis;

  constructor(
    postgresUrl: string,
    redisUrl: string,
    private readonly timeoutMs = 2_000,
  ) {
    this.pool = new pg.Pool({ connectionString: postgresUrl, max: 1, connectionTimeoutMillis: timeoutMs });
    // Errors surface through the probe result; an idle client error must not crash the process.
    this.pool.on('error', () => undefined);
    this.redis = new Redis(redisUrl, {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      // A ping sent while (re)connecting waits for the connection instead of failing at once;
      // `timed` still bounds it, so a probe right after boot does not report a false outage.
      enableOfflineQueue: true,
      connectTimeout: timeoutMs,
      retryStrategy: (attempt) => Math.min(attempt * 500, 5_000),
    });
    this.redis.on('error', () => undefined);
    this.redis.connect().catch(() => undefined);
  }

  postgres(): Promise<ProbeResult> {
    return timed(() => this.pool.query('select 1'), this.timeoutMs);
  }

  redisPing(): Promise<ProbeResult> {
    return timed(() => this.redis.ping(), this.timeoutMs);
  }

  async close(): Promise<void> {
    this.redis.disconnect();
    await this.pool.end().catch(() => undefined);
  }
}
