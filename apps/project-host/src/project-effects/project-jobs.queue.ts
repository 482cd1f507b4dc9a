import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createProducerConnection, queuePrefix } from '@suite/queue';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { PROJECT_HOST_CONFIG } from '../app.tokens.js';
import type { ProjectHostConfig } from '../project-host.config.js';

/** BullMQ queue of project jobs (`jobs/<name>.ts`), consumed by ProjectJobsWorker. */
export const PROJECT_JOBS_QUEUE = 'project-jobs';

/** One run of a project job; the code is the project's active deployment at run time. */
export interface ProjectJobPayload {
  projectId: string;
  name: string;
  payload: unknown;
}

/** A run and its retries (exponential backoff from 2 s); a job's handler may run more than once. */
export const PROJECT_JOB_ATTEMPTS = 3;

/** The producer side of the project-jobs queue (its own Redis connection, like the other producers). */
@Injectable()
export class ProjectJobsQueue implements OnApplicationShutdown {
  readonly queue: Queue<ProjectJobPayload, unknown, string>;
  private readonly connection: Redis;

  constructor(@Inject(PROJECT_HOST_CONFIG) config: ProjectHostConfig) {
    this.connection = createProducerConnection(config.REDIS_URL, { connectionName: 'project-host-jobs' });
    this.connection.on('error', () => undefined);
    this.queue = new Queue<ProjectJobPayload, unknown, string>(PROJECT_JOBS_QUEUE, {
      connection: this.connection,
      prefix: queuePrefix(),
      defaultJobOptions: {
        attempts: PROJECT_JOB_ATTEMPTS,
        backoff: { type: 'exponential', delay: 2_000 },
        removeOnComplete: { age: 24 * 3600, count: 10_000 },
        removeOnFail: { age: 7 * 24 * 3600 },
      },
    });
    this.queue.on('error', () => undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close().catch(() => undefined);
    this.connection.disconnect();
  }
}
