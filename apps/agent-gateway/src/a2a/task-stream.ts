import { Injectable } from '@nestjs/common';
import { SseWriter } from '@suite/nest-core';
import { toJsonRpcError } from '@suite/errors';
import type { MainDb } from '@suite/db';
import {
  fromSnapshot,
  isSettledStatus,
  JobEventsHub,
  logArtifact,
  taskArtifacts,
  taskStateOf,
  TaskState,
  type JobEvent,
  type JobStatusEvent,
  type JobStepEvent,
  type Principal,
  type StreamResponse,
  type Task,
  type TaskStatusUpdateEvent,
} from '@suite/jobs';
import type { ServerResponse } from 'node:http';
import { A2aTasksService } from './a2a-tasks.service.js';

/** Where a followed task's events go (an SSE response, an MCP progress callback, a webhook queue). */
export interface StreamSink {
  emit(response: StreamResponse): void;
}

/** A stream to a client: it also says how a failure ends it, and ends. */
export interface SseStreamSink extends StreamSink {
  fail(error: unknown, errorId: string | undefined): void;
  end(): void;
}

/**
 * Turns one job's events into A2A StreamResponses: the task first, then status updates (steps and
 * log lines as WORKING updates with an agent message), and at the end the artifacts and the final
 * status.
 */
interface StatusChange {
  status: MainDb.Job['status'];
  final: boolean;
  responses: StreamResponse[];
}

/** "Step 3/10 passed: Click Sign up" (without the count while the engine does not know it). */
export function stepText(step: JobStepEvent): string {
  const position = step.count ? `${step.index}/${step.count}` : `${step.index}`;
  const outcome = step.status === 'failed' && step.error ? ` (${step.error})` : '';
  return `Step ${position} ${step.status}: ${step.text}${outcome}`;
}

@Injectable()
export class TaskStreamer {
  private readonly changes = new WeakMap<JobStatusEvent, Promise<StatusChange>>();

  constructor(
    private readonly tasks: A2aTasksService,
    private readonly events: JobEventsHub,
  ) {}

  /** Follows the job until it ends or `signal` aborts; resolves when done. */
  async follow(
    principal: Principal,
    job: MainDb.Job,
    sink: StreamSink,
    options: { historyLength?: number; signal?: AbortSignal } = {},
  ): Promise<void> {
    const emit = (response: StreamResponse) => sink.emit(response);
    let done: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (done = resolve));
    let status = job.status;
    let ended = false;
    // Events wait until the task itself went out: it is always the first response.
    let started: () => void = () => undefined;
    let chain = new Promise<void>((resolve) => (started = resolve));
    const finish = () => {
      ended = true;
      done();
    };
    // Known before any event is handled (events wait for the task to go out).
    let contextId = job.id;
    const handle = async (event: JobEvent): Promise<void> => {
      if (ended) return;
      if (event.type === 'status') {
        const change = await this.statusChange(event);
        status = change.status;
        for (const response of change.responses) emit(response);
        if (change.final) finish();
        return;
      }
      const text = event.type === 'step' ? stepText(event) : event.line;
      emit({
        statusUpdate: {
          taskId: job.id,
          contextId,
          status: {
            state: status === 'queued' ? TaskState.Working : taskStateOf(status),
            message: {
              messageId: `${job.id}-${event.type}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
              contextId,
              taskId: job.id,
              role: 'ROLE_AGENT',
              parts: [{ text }],
            },
            timestamp: event.at,
          },
          metadata:
            event.type === 'step'
              ? {
                  kind: 'step',
                  index: event.index,
                  count: event.count,
                  stepStatus: event.status,
                  startedAt: event.startedAt,
                  finishedAt: event.finishedAt,
                  durationMs: event.durationMs,
                }
              : { kind: 'log' },
        },
      });
    };

    const unsubscribe = await this.events.subscribe(job.id, (event) => {
      chain = chain.then(() => handle(event)).catch(() => finish());
    });
    options.signal?.addEventListener('abort', finish, { once: true });
    this.events.shutdown.addEventListener('abort', finish, { once: true });
    try {
      const fresh = await this.tasks.findJob(principal, job.id);
      status = fresh.status;
      const task = await this.tasks.view(fresh, { historyLength: options.historyLength });
      contextId = task.contextId;
      emit({ task });
      if (isSettledStatus(fresh.status) || this.events.shutdown.aborted) finish();
      started();
      await finished;
    } finally {
      options.signal?.removeEventListener('abort', finish);
      this.events.shutdown.removeEventListener('abort', finish);
      await unsubscribe().catch(() => undefined);
    }
  }

  /**
   * What one status event means for every follower of the job: the event carries the job as
   * written, and is mapped once (all followers get the same event object), not once per follower.
   */
  private statusChange(event: JobStatusEvent): Promise<StatusChange> {
    let change = this.changes.get(event);
    if (!change) {
      change = this.toStatusChange(fromSnapshot(event.job));
      this.changes.set(event, change);
    }
    return change;
  }

  private async toStatusChange(fresh: MainDb.Job): Promise<StatusChange> {
    const final = isSettledStatus(fresh.status);
    const responses: StreamResponse[] = [];
    const statusUpdate = await this.statusUpdate(fresh);
    if (final) {
      for (const artifact of taskArtifacts(fresh, this.tasks.publicUrl)) {
        responses.push({
          artifactUpdate: {
            taskId: fresh.id,
            contextId: statusUpdate.contextId,
            artifact,
            append: false,
            lastChunk: true,
          },
        });
      }
    }
    responses.push({ statusUpdate });
    if (fresh.status === 'running') {
      // The log exists from now on: followers get its link while it grows (again, final, at the end).
      responses.push({
        artifactUpdate: {
          taskId: fresh.id,
          contextId: statusUpdate.contextId,
          artifact: logArtifact(fresh, this.tasks.publicUrl),
          append: false,
          lastChunk: false,
        },
      });
    }
    return { status: fresh.status, final, responses };
  }

  private async statusUpdate(job: MainDb.Job): Promise<TaskStatusUpdateEvent> {
    const task: Task = await this.tasks.view(job, { historyLength: 0, includeArtifacts: false });
    return { taskId: job.id, contextId: task.contextId, status: task.status };
  }
}

/** JSON-RPC responses as Server-Sent Events (the runner's one SSE writer underneath). */
export class JsonRpcSseSink implements SseStreamSink {
  private readonly sse: SseWriter;

  constructor(
    raw: ServerResponse,
    private readonly id: string | number | null,
  ) {
    this.sse = new SseWriter(raw);
    this.sse.flushHeaders();
  }

  emit(result: StreamResponse): void {
    this.sse.send({ jsonrpc: '2.0', id: this.id, result });
  }

  /** A failure after the stream started: its last event, a JSON-RPC error. */
  fail(error: unknown, errorId: string | undefined): void {
    this.sse.send(toJsonRpcError(error, this.id, { errorId }));
  }

  end(): void {
    this.sse.end();
  }
}
