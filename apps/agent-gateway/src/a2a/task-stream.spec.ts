import { describe, expect, it } from '@jest/globals';
import { JobService, LocalArtifactStore, ModelRegistry, type JobEvent, type JobEventsHub } from '@suite/jobs';
import { InMemoryJobQueue, InMemoryJobRepository } from '../../../../libs/jobs/src/testing/index.js';
import type { AgentGatewayConfig } from '../agent-gateway.config.js';
import type { A2aConversationRepository, StreamResponse } from '@suite/jobs';
import { A2aTasksService } from './a2a-tasks.service.js';
import { TaskStreamer } from './task-stream.js';

/** The process's events hub in memory: `deliver` hands an event to the job's watchers. */
class FakeHub {
  private readonly listeners = new Map<string, Set<(event: JobEvent) => void>>();
  private readonly closing = new AbortController();
  private onSubscribe: () => void = () => undefined;
  readonly subscribed = new Promise<void>((resolve) => (this.onSubscribe = resolve));

  get shutdown(): AbortSignal {
    return this.closing.signal;
  }

  subscribe(jobId: string, listener: (event: JobEvent) => void): Promise<() => Promise<void>> {
    const set = this.listeners.get(jobId) ?? new Set();
    set.add(listener);
    this.listeners.set(jobId, set);
    this.onSubscribe();
    return Promise.resolve(() => {
      set.delete(listener);
      return Promise.resolve();
    });
  }

  deliver(event: JobEvent): void {
    for (const listener of this.listeners.get(event.jobId) ?? []) listener(event);
  }
}

describe('TaskStreamer', () => {
  it('streams the task, then each change from the events alone, and ends with artifacts and the verdict', async () => {
    const jobs = new InMemoryJobRepository();
    let reads = 0;
    const findOwned = jobs.findOwned.bind(jobs);
    jobs.findOwned = (owner, id) => {
      reads++;
      return findOwned(owner, id);
    };
    const hub = new FakeHub();
    const contexts = { history: () => Promise.resolve([]) } as unknown as A2aConversationRepository;
    const service = new JobService({
      jobs,
      queue: new InMemoryJobQueue(),
      models: new ModelRegistry(),
      store: new LocalArtifactStore('unused'),
      hostedBrowser: false,
    });
    const config = { PUBLIC_RUNNER_URL: 'http://runner' } as AgentGatewayConfig;
    const tasks = new A2aTasksService(service, jobs, contexts, hub as unknown as JobEventsHub, config);
    const streamer = new TaskStreamer(tasks, hub as unknown as JobEventsHub);
    const job = jobs.seed({ owner: 'ada' });
    const responses: StreamResponse[] = [];

    const following = streamer.follow({ owner: 'ada', keyId: 'k1' }, job, { emit: (r) => responses.push(r) });
    await hub.subscribed;
    const publishLast = () => hub.deliver(jobs.events.at(-1)!);
    await jobs.claim(job.id, 'worker');
    publishLast();
    await jobs.recordStep(job.id, {
      index: 1,
      count: 1,
      text: 'Open /',
      action: 'navigate',
      status: 'passed',
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T00:00:01.000Z',
      durationMs: 1000,
      error: null,
    });
    publishLast();
    await jobs.finish(
      job.id,
      { status: 'succeeded', summary: 'All 1 steps passed.', steps: [] },
      {
        logPath: 'log',
        videoPath: null,
      },
    );
    publishLast();
    await following;

    const states = responses.map((r) =>
      'task' in r
        ? `task ${r.task.status.state}`
        : 'statusUpdate' in r
          ? r.statusUpdate.status.state
          : 'artifact',
    );
    expect(states).toEqual([
      'task TASK_STATE_SUBMITTED',
      'TASK_STATE_WORKING',
      'artifact',
      'TASK_STATE_WORKING',
      'artifact',
      'artifact',
      'artifact',
      'TASK_STATE_COMPLETED',
    ]);
    const log = responses[2]!;
    expect('artifactUpdate' in log && log.artifactUpdate).toMatchObject({
      artifact: { artifactId: 'log', parts: [{ url: `http://runner/v1/jobs/${job.id}/log` }] },
      lastChunk: false,
    });
    const step = responses[3]!;
    expect('statusUpdate' in step && step.statusUpdate).toMatchObject({
      status: { message: { parts: [{ text: 'Step 1/1 passed: Open /' }] } },
      metadata: { kind: 'step', index: 1, count: 1, stepStatus: 'passed', durationMs: 1000 },
    });
    // One read for the task itself; every change came with its event.
    expect(reads).toBe(1);
  });
});
