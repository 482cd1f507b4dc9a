import { BrowserPool } from '@suite/browser-agent';
import { publicStatus, type JobQueue, type JobRepository } from '@suite/jobs';
import { QueueName } from '@suite/queue';
import { browserRestarts, observeJobStates, observeQueueStates } from '@suite/telemetry';

/** BullMQ's states, and `pending`: jobs waiting their turn in the fair queue, not yet in BullMQ. */
const QUEUE_STATES = [
  'pending',
  'waiting',
  'active',
  'delayed',
  'prioritized',
  'waiting-children',
  'failed',
] as const;

/**
 * Feeds the runner's scrape-time gauges from this worker's connections: jobs by state (one grouped
 * count in Postgres, cached a few seconds; a job waiting for input counts as failed, as the job API
 * shows it) and the browser-job queue by BullMQ state; and counts browser restarts. Every worker
 * reports the same totals, so dashboards take `max`, not `sum`.
 */
export function observeRunner(jobs: JobRepository, queue: JobQueue): () => void {
  observeJobStates(async () => {
    const counts: Record<string, number> = {};
    for (const [status, count] of Object.entries(await jobs.countByStatus())) {
      const shown = publicStatus(status);
      counts[shown] = (counts[shown] ?? 0) + count;
    }
    return counts;
  });
  observeQueueStates(async () => ({ [QueueName.BrowserJobs]: await queue.counts(...QUEUE_STATES) }));
  return BrowserPool.onRestart(() => browserRestarts.inc());
}
