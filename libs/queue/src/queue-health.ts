import type { Redis } from 'ioredis';
import { createQueue, queueSnapshot, type QueueSnapshot, type TypedQueue } from './queue-factory.js';
import type { QueueName } from './queue-names.js';
import { createProducerConnection } from './redis-connection.js';

/**
 * What an app's /health says of the queues it produces to: each one's snapshot, whose `workers`
 * counts the consumers connected (the worker processes serving it), as the runner's /health does
 * for browser workers. Nest apps subclass it as their HealthExtras.
 */
export class QueueHealth {
  private readonly connection: Redis;
  private readonly queues: TypedQueue<QueueName>[];

  constructor(redisUrl: string, names: readonly QueueName[], connectionName: string) {
    this.connection = createProducerConnection(redisUrl, { connectionName });
    this.connection.on('error', () => undefined);
    this.queues = names.map((name) => {
      const queue = createQueue(name, this.connection) as TypedQueue<QueueName>;
      queue.on('error', () => undefined);
      return queue;
    });
  }

  async collect(): Promise<{ queues: ({ name: string } & QueueSnapshot)[] }> {
    const snapshots = await Promise.all(this.queues.map((queue) => queueSnapshot(queue)));
    return { queues: snapshots.map((snapshot, i) => ({ name: this.queues[i]!.name, ...snapshot })) };
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.queues.map((queue) => queue.close().catch(() => undefined)));
    this.connection.disconnect();
  }
}
