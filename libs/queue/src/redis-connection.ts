import { Redis, type RedisOptions } from 'ioredis';

/**
 * A Redis connection fit for BullMQ: workers block on Redis, so commands must wait for a
 * reconnect instead of failing after a fixed number of retries (maxRetriesPerRequest: null).
 */
export function createRedisConnection(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    connectionName: options.connectionName,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    ...options,
  });
}

/** Producers (HTTP handlers) should fail fast while Redis is down rather than hang a request. */
export function createProducerConnection(url: string, options: RedisOptions = {}): Redis {
  return createRedisConnection(url, { maxRetriesPerRequest: 2, enableOfflineQueue: false, ...options });
}

/**
 * Resolves once the connection is ready, or after `timeoutMs` (the command that follows then fails
 * as it would have). A producer connection refuses commands until its first connect completes, so a
 * request that arrives just after boot waits for it instead of failing.
 */
export async function redisReady(redis: Redis, timeoutMs = 2_000): Promise<void> {
  if (redis.status === 'ready' || redis.status === 'end') return;
  await new Promise<void>((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      redis.off('ready', done);
      redis.off('end', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    timer.unref();
    redis.once('ready', done);
    redis.once('end', done);
  });
}
