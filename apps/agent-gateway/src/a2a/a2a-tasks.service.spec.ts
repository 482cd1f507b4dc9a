import { beforeEach, describe, expect, it } from '@jest/globals';
import type { MainDb } from '@suite/db';
import {
  INSTRUCTIONS_NOT_UNDERSTOOD,
  JobService,
  LocalArtifactStore,
  ModelRegistry,
  type JobEventsHub,
} from '@suite/jobs';
import { InMemoryJobQueue, InMemoryJobRepository } from '../../../../libs/jobs/src/testing/index.js';
import type { AgentGatewayConfig } from '../agent-gateway.config.js';
import type { A2aContextRepository, StoredMessageParts } from './a2a-context.repository.js';
import { A2aTasksService } from './a2a-tasks.service.js';

/** Contexts and messages in memory. */
class InMemoryContexts {
  readonly contexts = new Map<string, string>();
  readonly messages: (StoredMessageParts & { contextId: string; taskId: string })[] = [];

  findContext(id: string) {
    const owner = this.contexts.get(id);
    return Promise.resolve(owner ? { id, owner } : null);
  }

  ensureContext(id: string, owner: string) {
    if (!this.contexts.has(id)) this.contexts.set(id, owner);
    return Promise.resolve({ id, owner: this.contexts.get(id)! });
  }

  deleteContext(id: string) {
    this.contexts.delete(id);
    return Promise.resolve();
  }

  addMessage(contextId: string, taskId: string, message: StoredMessageParts) {
    this.messages.push({ ...message, contextId, taskId });
    return Promise.resolve();
  }

  history(): Promise<MainDb.A2aMessage[]> {
    return Promise.resolve([]);
  }
}

describe('A2aTasksService', () => {
  const ada = { owner: 'ada', keyId: 'k1' };
  let jobs: InMemoryJobRepository;
  let queue: InMemoryJobQueue;
  let contexts: InMemoryContexts;
  let tasks: A2aTasksService;

  beforeEach(() => {
    jobs = new InMemoryJobRepository();
    queue = new InMemoryJobQueue();
    contexts = new InMemoryContexts();
    const service = new JobService({
      jobs,
      queue,
      models: new ModelRegistry(),
      store: new LocalArtifactStore('unused'),
      hostedBrowser: false,
    });
    const hub = {} as JobEventsHub; // no call here waits for a job
    const config = { PUBLIC_RUNNER_URL: 'http://runner', A2A_BLOCKING_TIMEOUT_MS: 1 } as AgentGatewayConfig;
    tasks = new A2aTasksService(service, jobs, contexts as unknown as A2aContextRepository, hub, config);
  });

  it('continues a task waiting for input with the follow-up’s instructions, on the same task', async () => {
    const waiting = jobs.seed({ owner: 'ada', status: 'needs_input', error: INSTRUCTIONS_NOT_UNDERSTOOD });
    const sent = await tasks.send(ada, {
      message: { messageId: 'm2', taskId: waiting.id, parts: [{ text: 'Open /thanks' }] },
      configuration: { returnImmediately: true },
    });
    expect(sent.job).toMatchObject({ id: waiting.id, status: 'queued', query: 'Open /thanks' });
    expect(queue.entries.has(waiting.id)).toBe(true);
    expect(contexts.messages).toEqual([expect.objectContaining({ taskId: waiting.id, messageId: 'm2' })]);
  });

  it('lists FAILED and INPUT_REQUIRED tasks apart, newest first, a page at a time', async () => {
    const older = jobs.seed({ owner: 'ada', status: 'failed', error: 'step 1 failed' });
    const waiting = jobs.seed({ owner: 'ada', status: 'needs_input', error: INSTRUCTIONS_NOT_UNDERSTOOD });
    const newer = jobs.seed({ owner: 'ada', status: 'failed', error: 'step 2 failed' });
    jobs.seed({ owner: 'bob', status: 'failed' });
    const ids = async (params: Record<string, unknown>) => {
      const page = await tasks.list(ada, params);
      return { ids: page.tasks.map((task) => task.id), next: page.nextPageToken, total: page.totalSize };
    };
    expect(await ids({ status: 'TASK_STATE_INPUT_REQUIRED' })).toEqual({
      ids: [waiting.id],
      next: '',
      total: 1,
    });
    const first = await ids({ status: 'TASK_STATE_FAILED', pageSize: 1 });
    expect(first).toMatchObject({ ids: [newer.id], total: 2 });
    expect(await ids({ status: 'TASK_STATE_FAILED', pageSize: 1, pageToken: first.next })).toEqual({
      ids: [older.id],
      next: '',
      total: 2,
    });
  });
});
