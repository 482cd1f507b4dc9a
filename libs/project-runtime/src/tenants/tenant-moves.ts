import { createRedisConnection, queuePrefix } from '@suite/queue';
import type { Redis } from 'ioredis';

// A project's tenant database moved to another server: every process of the deployment (hosts,
// project workers) forgets what it cached about where it was, over Redis pub/sub. Should a message
// be lost (Redis restarting), stale state still ends soon: the old copy is read-only, then dropped,
// and a failed connection makes ctx.db and the resolver look the project's row up again.

const channel = (): string => `${queuePrefix()}:tenant-moves`;

/** Tells every process that the project's tenant database now lives elsewhere. */
export async function announceTenantMove(redis: Redis, projectId: string): Promise<void> {
  await redis.publish(channel(), JSON.stringify({ p: projectId }));
}

/** Calls `moved` with the project id of every move announced from now on; `close` ends it. */
export function subscribeTenantMoves(
  redisUrl: string,
  connectionName: string,
  moved: (projectId: string) => void,
): { close(): void } {
  const subscriber = createRedisConnection(redisUrl, { connectionName });
  subscriber.on('error', () => undefined);
  subscriber.on('ready', () => void subscriber.subscribe(channel()).catch(() => undefined));
  subscriber.on('message', (_channel: string, text: string) => {
    try {
      const { p } = JSON.parse(text) as { p?: unknown };
      if (typeof p === 'string') moved(p);
    } catch {
      // Not ours: ignored.
    }
  });
  return { close: () => subscriber.disconnect() };
}
