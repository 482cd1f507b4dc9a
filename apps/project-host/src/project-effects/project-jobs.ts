import { Injectable } from '@nestjs/common';
import { ActiveDeployments } from '../project-code/active-deployments.js';
import { EffectError, isRecord } from './effect-error.js';
import { ProjectJobsQueue } from './project-jobs.queue.js';

const NAME = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;
const MAX_PAYLOAD_BYTES = 64 * 1024;
/** Longest delay of ctx.jobs.enqueue: 7 days. */
export const MAX_DELAY_MS = 7 * 24 * 3600 * 1000;

/** ctx.jobs.enqueue: validates the request against the active deployment and queues the run. */
@Injectable()
export class ProjectJobs {
  constructor(
    private readonly jobs: ProjectJobsQueue,
    private readonly active: ActiveDeployments,
  ) {}

  async enqueue(projectId: string, input: unknown): Promise<{ id: string }> {
    const { name, payload, delayMs } = parse(input);
    const deployment = await this.active.get(projectId);
    if (!deployment?.jobs.has(name)) {
      throw new EffectError(`ctx.jobs.enqueue: no job ${name} in the active deployment (jobs/${name}.ts)`);
    }
    try {
      const job = await this.jobs.queue.add(name, { projectId, name, payload }, { delay: delayMs });
      return { id: job.id! };
    } catch {
      throw new EffectError('ctx.jobs.enqueue: the job could not be queued; try again');
    }
  }
}

function parse(input: unknown): { name: string; payload: unknown; delayMs: number } {
  const name = isRecord(input) ? input.name : undefined;
  if (typeof name !== 'string' || !NAME.test(name) || name.length > 200) {
    throw new EffectError('ctx.jobs.enqueue: name must be a job name such as "welcome" or "mail/digest"');
  }
  const payload = isRecord(input) ? (input.payload ?? null) : null;
  if (Buffer.byteLength(JSON.stringify(payload)) > MAX_PAYLOAD_BYTES) {
    throw new EffectError(`ctx.jobs.enqueue: the payload is limited to ${MAX_PAYLOAD_BYTES} bytes of JSON`);
  }
  const options = isRecord(input) && isRecord(input.options) ? input.options : {};
  const delayMs = options.delayMs ?? 0;
  if (typeof delayMs !== 'number' || !Number.isFinite(delayMs) || delayMs < 0 || delayMs > MAX_DELAY_MS) {
    throw new EffectError(`ctx.jobs.enqueue: delayMs must be a number from 0 to ${MAX_DELAY_MS}`);
  }
  return { name, payload, delayMs: Math.round(delayMs) };
}
