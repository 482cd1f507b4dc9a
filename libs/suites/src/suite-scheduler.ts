import { QueueName, type TypedQueue } from '@suite/queue';

/**
 * A suite's schedule as a BullMQ job scheduler whose id is the suite id: BullMQ adds a `run` job
 * on the `suite-schedules` queue at each tick of the cron pattern (UTC), and the worker that
 * consumes it starts the run. No timers here: the HTTP app only keeps the scheduler in step.
 */
export class SuiteScheduler {
  constructor(private readonly queue: TypedQueue<typeof QueueName.SuiteSchedules>) {}

  async sync(suiteId: string, schedule: string | null): Promise<void> {
    if (!schedule) {
      await this.queue.removeJobScheduler(suiteId);
      return;
    }
    await this.queue.upsertJobScheduler(
      // BullMQ types the scheduler id with the queue's job names; any string is taken.
      suiteId as 'run',
      { pattern: schedule, tz: 'UTC' },
      {
        name: 'run',
        data: { suiteId },
        // A tick that failed is not retried: the next tick is the retry.
        opts: { attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } },
      },
    );
  }

  async remove(suiteId: string): Promise<void> {
    await this.queue.removeJobScheduler(suiteId);
  }
}
