import { Injectable } from '@nestjs/common';
import { SseWriter } from '@suite/nest-core';
import { FINAL_JOB_STATUSES, type JobRecordDto } from '@suite/contracts';
import {
  fromSnapshot,
  JobEventsHub,
  JobService,
  toJobRecord,
  type JobEvent,
  type JobStepEvent,
  type Principal,
} from '@suite/jobs';
import type { FastifyReply, FastifyRequest } from 'fastify';

const isFinal = (job: JobRecordDto): boolean =>
  (FINAL_JOB_STATUSES as readonly string[]).includes(job.status);

/** A step event as the job API spells it (snake_case, like the record's `steps`). */
const stepOf = (step: JobStepEvent) => ({
  index: step.index,
  count: step.count,
  text: step.text,
  action: step.action,
  status: step.status,
  started_at: step.startedAt,
  finished_at: step.finishedAt,
  duration_ms: step.durationMs,
  error: step.error,
});

/**
 * A job as a Server-Sent Events stream: `job` events carry the whole record (first the current
 * one, then after every status change), `step` events each step as it starts and ends, `log` events
 * each new log line; the stream ends when the
 * job does. Events come from the worker over Redis pub/sub and carry the job as written, so the
 * stream reads Postgres only when it starts.
 */
@Injectable()
export class JobStreamService {
  constructor(
    private readonly jobs: JobService,
    private readonly events: JobEventsHub,
  ) {}

  async stream(
    principal: Principal,
    id: string,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> {
    const first = await this.jobs.get(principal, id); // 404 before any byte of the stream is sent
    void reply.hijack();
    const sse = new SseWriter(reply.raw);
    // HEAD gets the stream's headers only; Node sends them with the end of a body-less response.
    if (request.method === 'HEAD') return sse.end();
    const subscription: { stop?: () => Promise<void> } = {};
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      void subscription.stop?.();
      sse.end();
    };
    request.raw.on('close', close);

    let lastStatus = first.status;
    const show = (job: JobRecordDto) => {
      if (closed) return;
      if (job.status !== lastStatus || isFinal(job)) {
        lastStatus = job.status;
        sse.send(job, 'job');
      }
      if (isFinal(job)) close();
    };
    sse.send(first, 'job');
    if (isFinal(first)) return close();
    subscription.stop = await this.events.subscribe(id, (event: JobEvent) => {
      if (event.type === 'log') sse.send({ line: event.line, at: event.at }, 'log');
      else if (event.type === 'step') sse.send(stepOf(event), 'step');
      else if (event.type === 'status') {
        const job = fromSnapshot(event.job);
        show(toJobRecord(job, Boolean(job.videoPath)));
      }
    });
    if (closed) return void subscription.stop();
    // The status may have changed between the first read and the subscription.
    await this.jobs.get(principal, id).then(show, close);
  }
}
