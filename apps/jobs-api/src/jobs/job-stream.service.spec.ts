import { describe, expect, it } from '@jest/globals';
import { JobService, LocalArtifactStore, ModelRegistry, type JobEvent, type JobEventsHub } from '@suite/jobs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { EventEmitter } from 'node:events';
import { InMemoryJobQueue, InMemoryJobRepository } from '../../../../libs/jobs/src/testing/index.js';
import { JobStreamService } from './job-stream.service.js';

/** A raw response that keeps what was written. */
class RecordedResponse extends EventEmitter {
  status = 0;
  body = '';
  writableEnded = false;
  writeHead(status: number) {
    this.status = status;
    return this;
  }
  flushHeaders() {}
  write(chunk: string) {
    this.body += chunk;
    return true;
  }
  end() {
    this.writableEnded = true;
  }
}

describe('JobStreamService', () => {
  it('sends the job, then each status change and log line from the events alone, and ends with the job', async () => {
    const jobs = new InMemoryJobRepository();
    let reads = 0;
    const findOwned = jobs.findOwned.bind(jobs);
    jobs.findOwned = (owner, id) => {
      reads++;
      return findOwned(owner, id);
    };
    const listeners: ((event: JobEvent) => void)[] = [];
    const hub = {
      subscribe: (_jobId: string, listener: (event: JobEvent) => void) => {
        listeners.push(listener);
        return Promise.resolve(() => Promise.resolve());
      },
    } as unknown as JobEventsHub;
    const service = new JobService({
      jobs,
      queue: new InMemoryJobQueue(),
      models: new ModelRegistry(),
      store: new LocalArtifactStore('unused'),
      hostedBrowser: false,
    });
    const streams = new JobStreamService(service, hub);
    const job = jobs.seed({ owner: 'ada' });
    const raw = new RecordedResponse();
    const request = { method: 'GET', raw: new EventEmitter() } as unknown as FastifyRequest;
    const reply = { hijack: () => undefined, raw } as unknown as FastifyReply;

    await streams.stream({ owner: 'ada', keyId: 'k1' }, job.id, request, reply);
    const publish = () => listeners.forEach((listener) => listener(jobs.events.at(-1)!));
    await jobs.claim(job.id, 'worker');
    publish();
    listeners.forEach((listener) => listener({ type: 'log', jobId: job.id, line: 'opened /', at: 'now' }));
    await jobs.finish(
      job.id,
      { status: 'succeeded', summary: 'All 1 steps passed.', steps: [] },
      {
        logPath: 'log',
        videoPath: null,
      },
    );
    publish();

    const events = raw.body
      .trim()
      .split('\n\n')
      .map((block) => {
        const [event, data] = block.split('\n');
        return [
          event!.replace('event: ', ''),
          JSON.parse(data!.replace('data: ', '')) as { status?: string },
        ];
      });
    expect(raw.status).toBe(200);
    expect(
      events.map(([name, data]) => (name === 'job' ? `job ${(data as { status: string }).status}` : name)),
    ).toEqual(['job queued', 'job running', 'log', 'job succeeded']);
    expect(raw.writableEnded).toBe(true);
    // The first read and the one after subscribing; the changes came with their events.
    expect(reads).toBe(2);
  });
});
