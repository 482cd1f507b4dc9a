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
