import type { WorkerOptions } from 'bullmq';
import { createWorker, type JobHandlers, type TypedWorker } from './queue-factory.js';
import type { QueueName } from './queue-names.js';
import { createRedisConnection } from './redis-connection.js';

export interface QueueConsumer<N extends QueueName> {
  readonly worker: TypedWorker<N>;
  /** Finishes the jobs in hand, then lets go of Redis. */
  close(): Promise<void>;
}

export type QueueConsumerOptions = Partial<WorkerOptions> & {
  redisUrl: string;
  connectionName: string;
  /** Worker errors (Redis away, a lost lock): at most one a minute, since an outage repeats them. */
  onError?: (error: Error) => void;
};

/**
 * A worker process's consumer of `queue`: a Redis connection of its own (a BullMQ worker blocks on
 * it) and one handler per job name of the queue, which createWorker checks at boot.
 */
export function consumeQueue<N extends QueueName>(
  queue: N,
  handlers: JobHandlers<N>,
  options: QueueConsumerOptions,
): QueueConsumer<N> {
  const { redisUrl, connectionName, onError, ...workerOptions } = options;
  const connection = createRedisConnection(redisUrl, { connectionName });
  connection.on('error', () => undefined);
  let worker: TypedWorker<N>;
  try {
    worker = createWorker(queue, handlers, connection, workerOptions);
  } catch (error) {
    connection.disconnect();
    throw error;
  }
  let lastErrorAt = Number.NEGATIVE_INFINITY;
  worker.on('error', (error) => {
    if (!onError || Date.now() - lastErrorAt < 60_000) return;
    lastErrorAt = Date.now();
    onError(error);
  });
  return {
    worker,
    close: async () => {
      await worker.close().catch(() => undefined);
      connection.disconnect();
    },
  };
}
