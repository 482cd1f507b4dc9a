import { BrowserPool } from '@suite/browser-agent';
import { QueueName } from '@suite/queue';
import { browserRestarts, observeJobStates, observeQueueStates } from '@suite/telemetry';
import type { WorkerResources } from '../jobs/worker-resources.js';

const QUEUE_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children', 'failed'] as const;

/**
 * Feeds the runner's scrape-time gauges from this worker's connections: jobs by state (one grouped
 * count in Postgres, cached a few seconds) and the browser-job queue by BullMQ state; and counts
 * browser restarts. Every worker reports the same totals, so dashboards take `max`, not `sum`.
 */
export function observeRunner(resources: WorkerResources): () => void {
  observeJobStates(async () => {
    const rows = await resources.db.job.groupBy({ by: ['status'], _count: { _all: true } });
    return Object.fromEntries(rows.map((row) => [row.status, row._count._all]));
  });
  observeQueueStates(async () => ({
    [QueueName.BrowserJobs]: await resources.queue.getJobCounts(...QUEUE_STATES),
  }));
  return BrowserPool.onRestart(() => browserRestarts.inc());
}
