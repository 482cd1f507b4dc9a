import { Injectable } from '@nestjs/common';
import { FINAL_JOB_STATUSES, type JobRecordDto } from '@suite/contracts';
import { JobService, type Principal } from '@suite/jobs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RunnerResources } from './runner-resources.js';

const HEARTBEAT_MS = 15_000;
const isFinal = (job: JobRecordDto): boolean =>
  (FINAL_JOB_STATUSES as readonly string[]).includes(job.status);

/**
 * A job as a Server-Sent Events stream: `job` events carry the whole record (first the current
 * one, then after every status change), `log` events each new log line; the stream ends when the
 * job does. Events come from the worker over Redis pub/sub, not from polling.
 */
@Injectable()
export class JobStreamService {
  constructor(
    private readonly jobs: JobService,
    private readonly resources: RunnerResources,
  ) {}

  async stream(
    principal: Principal,
    id: string,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> {
    let job = await this.jobs.get(principal, id); // 404 before any byte of the stream is sent
    void reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    // HEAD gets the stream's headers only; Node sends them with the end of a body-less response.
    if (request.method === 'HEAD') return void raw.end();
    let closed = false;
    const send = (event: string, data: unknown) => {
      if (!closed) raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    const subscription: { stop?: () => Promise<void> } = {};
    const heartbeat = setInterval(() => !closed && raw.write(': keep-alive\n\n'), HEARTBEAT_MS);
    const close = () => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      void subscription.stop?.();
      raw.end();
    };
    request.raw.on('close', close);

    let lastStatus = job.status;
    const refresh = async () => {
      job = await this.jobs.get(principal, id);
      if (job.status !== lastStatus || isFinal(job)) {
        lastStatus = job.status;
        send('job', job);
      }
      if (isFinal(job)) close();
    };
    send('job', job);
    if (isFinal(job)) return close();
    subscription.stop = await this.resources.events.subscribe(id, (event) => {
      if (event.type === 'log') send('log', { line: event.line, at: event.at });
      else if (event.type === 'status') void refresh().catch(close);
    });
    // The status may have changed between the first read and the subscription.
    await refresh().catch(close);
  }
}
