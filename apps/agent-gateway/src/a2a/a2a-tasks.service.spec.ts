import { beforeEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { readStagedParams, SendMessageParamsDto } from '@suite/contracts';
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
import type { A2aConversationRepository, StoredMessageParts } from '@suite/jobs';
import { A2aTasksService } from './a2a-tasks.service.js';

/** Contexts and messages in memory. */
class InMemoryContexts {
  readonly contexts = new Map<string, string>();
  /** Context id → the client's name for it. */
  readonly names = new Map<string, string>();

  findNamed(owner: string, clientId: string) {
    const found = [...this.names].find(([id, name]) => name === clientId && this.contexts.get(id) === owner);
    return Promise.resolve(found?.[0] ?? null);
  }

  async ensureNamed(owner: string, clientId: string) {
    const existing = await this.findNamed(owner, clientId);
    if (existing) return { id: existing, created: false };
    const id = randomUUID();
    this.contexts.set(id, owner);
    this.names.set(id, clientId);
    return { id, created: true };
  }

  wireId(id: string) {
    return Promise.resolve(this.names.get(id) ?? id);
  }
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

/** SendMessage params as A2aMethods reads them. */
const sendParams = (params: object) => readStagedParams(SendMessageParamsDto, params, ['message']);

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
    tasks = new A2aTasksService(service, jobs, contexts as unknown as A2aConversationRepository, hub, config);
  });

  it('continues a task waiting for input with the follow-up’s instructions, on the same task', async () => {
    const waiting = jobs.seed({ owner: 'ada', status: 'needs_input', error: INSTRUCTIONS_NOT_UNDERSTOOD });
    const sent = await tasks.send(
      ada,
      sendParams({
        message: { messageId: 'm2', taskId: waiting.id, parts: [{ text: 'Open /thanks' }] },
        configuration: { returnImmediately: true },
      }),
    );
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

  it('takes a context id the client chose as a new context of its owner, apart from other owners', async () => {
    const bob = { owner: 'bob', keyId: 'k2' };
    // The in-memory repository stores no A2A messages: the first message is left out here.
    const create = jobs.create.bind(jobs);
    jobs.create = (job, task) => create(job, { createContext: task?.createContext ?? false });
    const send = async (who: typeof ada, contextId: string) => {
      const sent = await tasks.send(
        who,
        sendParams({
          message: { messageId: randomUUID(), contextId, parts: [{ text: 'Open /' }] },
          configuration: { returnImmediately: true },
        }),
      );
      return tasks.finishSend(who, sent);
    };
    const first = await send(ada, 'chat-42');
    const second = await send(ada, 'chat-42');
    const bobs = await send(bob, 'chat-42');
    expect([first.contextId, second.contextId, bobs.contextId]).toEqual(['chat-42', 'chat-42', 'chat-42']);
    const internal = (id: string) => jobs.jobs.get(id)!.contextId;
    expect(internal(second.id)).toBe(internal(first.id));
    expect(internal(bobs.id)).not.toBe(internal(first.id));
    const listed = async (who: typeof ada) =>
      (await tasks.list(who, { contextId: 'chat-42' })).tasks.map((task) => task.id);
    expect(await listed(ada)).toEqual([second.id, first.id]);
    expect(await listed(bob)).toEqual([bobs.id]);

    // Another owner's server-issued context id is just a new name: nothing tells it apart.
    const adaContext = internal(first.id)!;
    const borrowed = await send(bob, adaContext);
    expect(borrowed.contextId).toBe(adaContext);
    expect(internal(borrowed.id)).not.toBe(adaContext);
    expect(await listed(ada)).toEqual([second.id, first.id]);
  });
});
