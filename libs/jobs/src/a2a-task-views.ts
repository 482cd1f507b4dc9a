import type { MainDb } from '@suite/db';
import type { A2aConversationRepository } from './a2a-conversation.repository.js';
import { contextOf, toTask, type TaskViewOptions } from './a2a-task.mapper.js';
import type { Task } from './a2a-wire.types.js';

export type TaskViewRequest = Omit<TaskViewOptions, 'publicUrl' | 'contextId'>;

/**
 * A job as the A2A Task clients see, for every process that shows one: the gateway's answers and
 * the push worker's notifications (the same bytes either way).
 */
export class A2aTaskViews {
  constructor(
    private readonly contexts: A2aConversationRepository,
    /** PUBLIC_RUNNER_URL: artifact links are absolute. */
    private readonly publicUrl: string,
  ) {}

  async view(job: MainDb.Job, options: TaskViewRequest = {}): Promise<Task> {
    const { history: known, ...rest } = options;
    const history = rest.historyLength === 0 ? [] : (known ?? (await this.contexts.history(job.id)));
    const contextId = await this.contextIdOf(job);
    return toTask(job, { publicUrl: this.publicUrl, ...rest, history, contextId });
  }

  /** The task's contextId as clients see it: the name a client gave the context, or its id. */
  contextIdOf(job: MainDb.Job): Promise<string> {
    return job.contextId ? this.contexts.wireId(job.contextId) : Promise.resolve(contextOf(job));
  }
}
