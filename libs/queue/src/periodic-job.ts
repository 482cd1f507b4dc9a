import type { Queue } from 'bullmq';
import type { TypedQueue } from './queue-factory.js';
import type { JobName, QueueName, QueuePayloads } from './queue-names.js';

export interface PeriodicJob<N extends QueueName> {
  /** The job scheduler's id: one per kind of chore, so every replica that syncs it keeps the same one. */
  id: string;
  /** The interval in milliseconds; 0 removes the scheduler (the chore no longer runs). */
  everyMs: number;
  name: JobName<N>;
  data: QueuePayloads[N];
}

/**
 * A chore of the deployment, done by one worker at a time however many run: a BullMQ job scheduler
 * adds its job every `everyMs`, the first one interval after the scheduler is made (syncing it
 * again from every replica's boot keeps one scheduler and its pace, not one per replica), and the queue's global concurrency of 1 makes a tick that comes while the last
 * run is still going wait for it instead of running beside it on another replica (BullMQ adds the
 * next tick as soon as a run starts). The queue must carry nothing else.
 */
export async function syncPeriodicJob<N extends QueueName>(
  queue: TypedQueue<N>,
  job: PeriodicJob<N>,
): Promise<void> {
  // BullMQ types scheduler ids and names with the queue's job names, which generics here lose.
  const untyped = queue as unknown as Queue;
  if (job.everyMs <= 0) {
    await untyped.removeJobScheduler(job.id);
    return;
  }
  await untyped.setGlobalConcurrency(1);
  await untyped.upsertJobScheduler(
    job.id,
    // startDate counts only when the scheduler is new (or its interval changed).
    { every: job.everyMs, startDate: Date.now() + job.everyMs },
    {
      name: job.name,
      data: job.data,
      // A run that failed is not retried: the next tick is the retry.
      opts: { attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } },
    },
  );
}
