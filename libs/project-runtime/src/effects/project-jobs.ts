import { Inject, Injectable } from '@nestjs/common';
import { newId } from '@suite/db';
import { PROJECT_RUNTIME_CONFIG } from '../runtime.config.js';
import { ActiveDeployments } from '../deployments/active-deployments.js';
import type { ProjectRuntimeConfig } from '../runtime.config.js';
import { EffectError, isRecord } from './effect-error.js';
import { EffectRateLimit, EffectRateLimits } from './effect-rate-limit.js';
import { ProjectJobsQueue } from './project-jobs.queue.js';

const NAME = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;
/** Longest delay of ctx.jobs.enqueue: 7 days. */
export const MAX_DELAY_MS = 7 * 24 * 3600 * 1000;

/**
 * ctx.jobs.enqueue: validates the request against the active deployment and queues the run, within
 * the project's limits: PROJECT_JOBS_PER_MINUTE, PROJECT_JOBS_MAX_PENDING and
 * PROJECT_JOB_PAYLOAD_KB.
 */
@Injectable()
export class ProjectJobs {
  private readonly rate: EffectRateLimit;
  private readonly maxPayloadBytes: number;

  constructor(
    private readonly jobs: ProjectJobsQueue,
    private readonly active: ActiveDeployments,
    limits: EffectRateLimits,
    @Inject(PROJECT_RUNTIME_CONFIG) private readonly config: ProjectRuntimeConfig,
  ) {
    this.rate = limits.of({
      key: 'jobs',
      call: 'ctx.jobs.enqueue',
      unit: 'jobs',
      perMinute: config.PROJECT_JOBS_PER_MINUTE,
    });
    this.maxPayloadBytes = config.PROJECT_JOB_PAYLOAD_KB * 1024;
  }

  async enqueue(projectId: string, input: unknown): Promise<{ id: string }> {
    const { name, payload, delayMs } = parse(input, this.maxPayloadBytes);
    const deployment = await this.active.get(projectId);
    if (!deployment?.jobs.has(name)) {
      throw new EffectError(`ctx.jobs.enqueue: no job ${name} in the active deployment (jobs/${name}.ts)`);
    }
    await this.rate.take(projectId);
    const id = newId();
    if (!(await this.jobs.reserve(projectId, id, delayMs))) {
      throw new EffectError(
        `ctx.jobs.enqueue: limit of ${this.config.PROJECT_JOBS_MAX_PENDING} pending jobs (queued, delayed or running) ` +
          'for this project reached; try again once some have run',
      );
    }
    try {
      await this.jobs.queue.add('run', { projectId, name, payload }, { delay: delayMs, jobId: id });
      return { id };
    } catch {
      await this.jobs.release(projectId, id);
      throw new EffectError('ctx.jobs.enqueue: the job could not be queued; try again');
    }
  }
}

function parse(input: unknown, maxPayloadBytes: number): { name: string; payload: unknown; delayMs: number } {
  const name = isRecord(input) ? input.name : undefined;
  if (typeof name !== 'string' || !NAME.test(name) || name.length > 200) {
    throw new EffectError('ctx.jobs.enqueue: name must be a job name such as "welcome" or "mail/digest"');
  }
  const payload = isRecord(input) ? (input.payload ?? null) : null;
  if (Buffer.byteLength(JSON.stringify(payload)) > maxPayloadBytes) {
    throw new EffectError(`ctx.jobs.enqueue: the payload is limited to ${maxPayloadBytes / 1024} KB of JSON`);
  }
  const options = isRecord(input) && isRecord(input.options) ? input.options : {};
  const delayMs = options.delayMs ?? 0;
  if (typeof delayMs !== 'number' || !Number.isFinite(delayMs) || delayMs < 0 || delayMs > MAX_DELAY_MS) {
    throw new EffectError(`ctx.jobs.enqueue: delayMs must be a number from 0 to ${MAX_DELAY_MS}`);
  }
  return { name, payload, delayMs: Math.round(delayMs) };
}
