import { JobStatus } from '@suite/contracts';
import type { MainDb } from '@suite/db';
import { INSTRUCTIONS_NOT_UNDERSTOOD } from '@suite/jobs';
import type { Artifact, Message, Part, Task, TaskState } from './a2a.types.js';
import { TaskState as State } from './a2a.types.js';

export function taskStateOf(status: string): TaskState {
  switch (status as JobStatus) {
    case JobStatus.Queued:
      return State.Submitted;
    case JobStatus.Running:
      return State.Working;
    case JobStatus.Succeeded:
      return State.Completed;
    case JobStatus.Failed:
      return State.Failed;
    case JobStatus.Cancelled:
      return State.Canceled;
    default:
      return State.Working;
  }
}

/** A job's task state: a job whose instructions were not understood is waiting for input. */
export function taskStateOfJob(job: Pick<MainDb.Job, 'status' | 'error'>): TaskState {
  return needsInput(job) ? State.InputRequired : taskStateOf(job.status);
}

export const needsInput = (job: Pick<MainDb.Job, 'status' | 'error'>): boolean =>
  job.status === JobStatus.Failed && job.error === INSTRUCTIONS_NOT_UNDERSTOOD;

/**
 * The jobs a ListTasks `status` filter selects, or null for states jobs never have (auth-required,
 * rejected). INPUT_REQUIRED is a failed job whose instructions were not understood, so FAILED
 * leaves those out.
 */
export function jobFilterOf(state: string): MainDb.Prisma.JobWhereInput | null {
  switch (state) {
    case State.Submitted:
      return { status: JobStatus.Queued };
    case State.Working:
      return { status: JobStatus.Running };
    case State.Completed:
      return { status: JobStatus.Succeeded };
    case State.Failed:
      return {
        status: JobStatus.Failed,
        OR: [{ error: null }, { error: { not: INSTRUCTIONS_NOT_UNDERSTOOD } }],
      };
    case State.InputRequired:
      return { status: JobStatus.Failed, error: INSTRUCTIONS_NOT_UNDERSTOOD };
    case State.Canceled:
      return { status: JobStatus.Cancelled };
    default:
      return null;
  }
}

export interface TaskViewOptions {
  /** Absolute origin of the runner (PUBLIC_RUNNER_URL). */
  publicUrl: string;
  history?: MainDb.A2aMessage[];
  /** undefined: the whole history; 0: none. */
  historyLength?: number;
  includeArtifacts?: boolean;
}

export function storedMessage(row: MainDb.A2aMessage): Message {
  return {
    messageId: row.messageId ?? row.id,
    contextId: row.contextId,
    ...(row.taskId ? { taskId: row.taskId } : {}),
    role: row.role as Message['role'],
    parts: (row.parts as unknown as Part[]) ?? [],
    ...(row.metadata ? { metadata: row.metadata as Record<string, unknown> } : {}),
  };
}

export const contextOf = (job: MainDb.Job): string => job.contextId ?? job.id;

const statusTime = (job: MainDb.Job): Date => job.finishedAt ?? job.startedAt ?? job.createdAt;

/** The agent's closing words on a finished task: its summary (or error). */
function statusMessage(job: MainDb.Job): Message | undefined {
  const text = job.summary ?? job.error;
  if (!text || (job.status !== JobStatus.Succeeded && job.status !== JobStatus.Failed)) return undefined;
  return {
    messageId: `${job.id}-status`,
    contextId: contextOf(job),
    taskId: job.id,
    role: 'ROLE_AGENT',
    parts: [{ text }],
  };
}

export function taskArtifacts(job: MainDb.Job, publicUrl: string): Artifact[] {
  const finished = job.status === JobStatus.Succeeded || job.status === JobStatus.Failed;
  if (!finished) return [];
  const base = `${publicUrl}/v1/jobs/${job.id}`;
  const artifacts: Artifact[] = [
    {
      artifactId: 'summary',
      name: 'summary',
      description: 'Verdict of the browser test in one paragraph.',
      parts: [
        { text: job.summary ?? job.error ?? (job.status === JobStatus.Succeeded ? 'Passed.' : 'Failed.') },
      ],
    },
    {
      artifactId: 'steps',
      name: 'steps',
      description: 'Result of every step, in order.',
      parts: [{ data: { steps: job.steps ?? [] }, mediaType: 'application/json' }],
    },
    {
      artifactId: 'log',
      name: 'agent log',
      description: 'The agent log (needs the API key).',
      parts: [{ url: `${base}/log`, mediaType: 'text/plain', filename: 'agent-log.txt' }],
    },
  ];
  if (job.videoPath) {
    artifacts.push({
      artifactId: 'video',
      name: 'video',
      description: 'Recording of the browser session, H.264 MP4 (needs the API key).',
      parts: [{ url: `${base}/video`, mediaType: 'video/mp4', filename: 'video.mp4' }],
    });
  }
  return artifacts;
}

export function toTask(job: MainDb.Job, options: TaskViewOptions): Task {
  const message = statusMessage(job);
  const task: Task = {
    id: job.id,
    contextId: contextOf(job),
    status: {
      state: taskStateOfJob(job),
      ...(message ? { message } : {}),
      timestamp: statusTime(job).toISOString(),
    },
    metadata: {
      model: job.model,
      env: job.env,
      initialUrl: job.initialUrl,
      links: { self: `${options.publicUrl}/v1/jobs/${job.id}` },
    },
  };
  if (options.includeArtifacts !== false) task.artifacts = taskArtifacts(job, options.publicUrl);
  if (options.history) {
    const all = options.history.map(storedMessage);
    const n = options.historyLength;
    task.history = n === undefined ? all : n === 0 ? [] : all.slice(-n);
  }
  return task;
}
