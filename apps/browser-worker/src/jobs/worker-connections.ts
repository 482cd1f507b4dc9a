import {
  ARTIFACT_STORE,
  FairJobQueue,
  fairShareLimitsOf,
  JobConnections,
  JobEventsPublisher,
  JobQueue,
  JobRepository,
  PrismaJobRepository,
} from '@suite/jobs';
import type { BrowserWorkerConfig } from '../browser-worker.config.js';
import { BROWSER_WORKER_CONFIG } from '../worker.tokens.js';
import { RedisLock } from './redis-lock.js';
import { ReplayScriptRepository } from './replay-script.repository.js';
import { StepResolutionRepository } from './step-resolution.repository.js';

/** The worker's job connections (its queue consumer has a blocking connection of its own). */
export class WorkerConnections extends JobConnections {
  constructor(config: BrowserWorkerConfig) {
    super(config, { connectionName: 'browser-worker:events', poolSize: 4, producer: false });
  }
}

/** The worker's side-effect adapters as Nest providers. */
export const workerConnectionProviders = [
  {
    provide: WorkerConnections,
    inject: [BROWSER_WORKER_CONFIG],
    useFactory: (config: BrowserWorkerConfig) => new WorkerConnections(config),
  },
  {
    provide: JobEventsPublisher,
    inject: [WorkerConnections],
    useFactory: (c: WorkerConnections) => new JobEventsPublisher(c.redis),
  },
  {
    provide: JobRepository,
    inject: [WorkerConnections, JobEventsPublisher],
    useFactory: (c: WorkerConnections, events: JobEventsPublisher): JobRepository =>
      new PrismaJobRepository(c.db, events),
  },
  {
    provide: JobQueue,
    inject: [WorkerConnections, BROWSER_WORKER_CONFIG],
    useFactory: (c: WorkerConnections, config: BrowserWorkerConfig): JobQueue =>
      new FairJobQueue(c.queue, c.redis, fairShareLimitsOf(config)),
  },
  { provide: ARTIFACT_STORE, inject: [WorkerConnections], useFactory: (c: WorkerConnections) => c.artifacts },
  {
    provide: ReplayScriptRepository,
    inject: [WorkerConnections],
    useFactory: (c: WorkerConnections) => new ReplayScriptRepository(c.db),
  },
  {
    provide: StepResolutionRepository,
    inject: [WorkerConnections],
    useFactory: (c: WorkerConnections) => new StepResolutionRepository(c.db),
  },
  {
    provide: RedisLock,
    inject: [WorkerConnections],
    useFactory: (c: WorkerConnections) => new RedisLock(c.redis),
  },
];
